import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const env = { SERVICE_BASE_URL: 'http://127.0.0.1:9/api', SERVICE_INGEST_TOKEN: 'tok-dates' };

describe('event send: dates that cannot exist are rejected, not rolled over', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir();
  });
  after(() => rm(dir, { recursive: true, force: true }));

  for (const time of [
    '2026-02-30T00:00:00Z',
    '2026-02-29T10:00:00Z',
    '2026-04-31T00:00:00+02:00',
    '2026-13-01T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01T23:60:00Z',
    '2026-01-01T00:00:60Z',
    '2026-01-01T00:00:00+24:00',
  ]) {
    it(`--created-at ${time} is a usage error (exit 2)`, async () => {
      const result = await runCli(['event', 'send', '--title', 'x', '--created-at', time, '--dry-run'], { env });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /--created-at: .* is not a possible date and time/);
      assert.equal(result.stdout, '');
    });
  }

  it('accepts real edge dates: 29 February of a leap year, 23:59:59, an offset crossing midnight', async () => {
    const result = await runCli(
      ['event', 'send', '--title', 'x', '--created-at', '2024-02-29T23:59:59-01:00', '--dry-run'],
      { env },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /"created_at":"2024-03-01T00:59:59\.000Z"/);
    const y2000 = await runCli(['event', 'send', '--title', 'x', '--created-at', '2000-02-29T00:00:00Z', '--dry-run'], {
      env,
    });
    assert.equal(y2000.code, 0, y2000.stderr);
  });

  it('a canonical UTC time in a file (the fast path that skips conversion) is still checked: exit 3', async () => {
    const file = join(dir, 'impossible.json');
    await writeFile(file, '{"title":"x","created_at":"2026-02-30T00:00:00.000Z"}');
    const result = await runCli(['event', 'send', file, '--dry-run'], { env });
    assert.equal(result.code, 3, result.stderr);
    assert.match(
      result.stderr,
      /event\.created_at: '2026-02-30T00:00:00\.000Z' is not a possible date and time: day 30 does not exist/,
    );
    assert.equal(result.stdout, '');
  });

  it('1900 is not a leap year, in an NDJSON line (the line is named)', async () => {
    const file = join(dir, 'dates.ndjson');
    await writeFile(
      file,
      '{"title":"ok","created_at":"2026-02-28T00:00:00Z"}\n{"title":"x","created_at":"1900-02-29T00:00:00Z"}\n',
    );
    const result = await runCli(['event', 'send', '--ndjson', file, '--dry-run'], { env });
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, /line 2: event\.created_at: '1900-02-29T00:00:00Z' is not a possible date/);
    assert.match(result.stdout, /"created_at":"2026-02-28T00:00:00\.000Z"/);
  });
});
