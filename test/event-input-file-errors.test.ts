import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const env = { SERVICE_BASE_URL: 'http://127.0.0.1:9/api', SERVICE_INGEST_TOKEN: 'tok-files' };

describe('file flags that cannot be read are explained in words, not error codes', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir();
  });
  after(() => rm(dir, { recursive: true, force: true }));

  for (const flag of ['--token-file', '--hmac-secret-file', '--payload-file']) {
    it(`${flag} given a folder, then a missing file: exit 2`, async () => {
      const folder = await runCli(['event', 'send', '--title', 'x', flag, dir, '--dry-run'], { env });
      assert.equal(folder.code, 2, folder.stderr);
      assert.ok(folder.stderr.includes(`${flag}: ${dir} is a folder, not a file`), folder.stderr);
      assert.doesNotMatch(folder.stderr, /EISDIR/);
      const missing = join(dir, 'nope');
      const absent = await runCli(['event', 'send', '--title', 'x', flag, missing, '--dry-run'], { env });
      assert.equal(absent.code, 2, absent.stderr);
      assert.ok(absent.stderr.includes(`${flag}: no such file: ${missing}`), absent.stderr);
      assert.doesNotMatch(absent.stderr, /ENOENT/);
    });
  }
});
