import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const env = { SERVICE_BASE_URL: 'http://127.0.0.1:9/api', SERVICE_INGEST_TOKEN: 'tok-flags' };

describe('event send: payload flag values are checked like other flags (exit 2)', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir();
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('--payload with a label that is not a string: exit 2 naming --payload', async () => {
    const result = await runCli(['event', 'send', '--title', 'x', '--payload', '{"labels":{"a":1}}', '--dry-run'], {
      env,
    });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /--payload: payload\.labels\.a: must be a string/);
    assert.equal(result.stdout, '');
  });

  it('--payload-file with two problems: exit 2 naming --payload-file and both', async () => {
    const file = join(dir, 'payload.json');
    await writeFile(file, '{"source":1,"labels":[]}');
    const result = await runCli(['event', 'send', '--title', 'x', '--payload-file', file, '--dry-run'], { env });
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /--payload-file .*payload\.json:\n {2}payload\.source: must be a string\n {2}payload\.labels: must be an object of strings/,
    );
  });

  it('a --label key given twice: a warning, the last value is used', async () => {
    const result = await runCli(
      ['event', 'send', '--title', 'x', '--label', 'a=1', '--label', 'b=2', '--label', 'a=3', '--dry-run'],
      { env },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /warning: --label a given twice; the last value is used/);
    const body = JSON.parse(result.stdout.slice(result.stdout.indexOf('\n\n') + 2));
    assert.deepEqual(JSON.parse(body.event.payload), { labels: { a: '3', b: '2' } });
    const once = await runCli(['event', 'send', '--title', 'x', '--label', 'a=1', '--label', 'b=2', '--dry-run'], {
      env,
    });
    assert.doesNotMatch(once.stderr, /given twice/);
  });
});
