import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { useEventFixture } from './helpers/event-fixture.js';

// "café" in Latin-1: 0xE9 alone is not UTF-8.
const LATIN1_TITLE = Buffer.from([...Buffer.from('{"title":"caf'), 0xe9, ...Buffer.from('"}')]);

describe('event send: input that is not valid UTF-8 is rejected, never replaced by U+FFFD', () => {
  const fixture = useEventFixture('tok-utf8');

  it('a file: exit 3 naming the file, nothing sent', async () => {
    const file = join(fixture.dir, 'latin1.json');
    await writeFile(file, LATIN1_TITLE);
    const result = await runCli(['event', 'send', file], { env: fixture.env });
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, /latin1\.json is not valid UTF-8 text/);
    assert.equal(fixture.server.requests.length, 0);
  });

  it('stdin with --raw: exit 3 naming stdin (the bytes would otherwise be sent as is)', async () => {
    const body = Buffer.concat([
      Buffer.from(
        '{"event":{"id":"6f1c2a4e-8b7d-4c3e-9f0a-1b2c3d4e5f60","created_at":"2026-11-22T02:31:00Z","title":"caf',
      ),
      Buffer.from([0xe9]),
      Buffer.from('"}}'),
    ]);
    const result = await runCli(['event', 'send', '-', '--raw'], { env: fixture.env, input: body });
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, /stdin is not valid UTF-8 text/);
    assert.equal(fixture.server.requests.length, 0);
  });

  it('an NDJSON line: reported with its line number, the other lines are sent; a BOM and real UTF-8 are fine', async () => {
    const file = join(fixture.dir, 'mixed.ndjson');
    const truncated = Buffer.from([...Buffer.from('{"title":"euro '), 0xe2, 0x82, ...Buffer.from('"}')]);
    await writeFile(
      file,
      Buffer.concat([
        Buffer.from('\ufeff{"title":"caf\u00e9 \u20ac"}\n'),
        LATIN1_TITLE,
        Buffer.from('\n'),
        truncated,
        Buffer.from('\n'),
      ]),
    );
    const result = await runCli(['event', 'send', '--ndjson', file], { env: fixture.env });
    assert.equal(result.code, 9, result.stderr);
    assert.match(result.stderr, /line 2 is not valid UTF-8 text/);
    assert.match(result.stderr, /line 3 is not valid UTF-8 text/);
    assert.equal(fixture.server.requests.length, 1);
    assert.equal(JSON.parse(fixture.server.requests[0]!.body.toString('utf8')).event.title, 'caf\u00e9 \u20ac');
  });
});
