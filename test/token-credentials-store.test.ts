/** The credentials store, driven directly with a temp HOME: mode 0600, atomic replace, corrupt files refused. */
import assert from 'node:assert/strict';
import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import type { Context } from '../src/core/context.js';
import { KnownSecrets } from '../src/redaction/known-secrets.js';
import { Output } from '../src/core/output.js';
import { credentialsPath, forgetToken, readSavedToken, saveToken } from '../src/auth/credentials-store.js';
import { tempDir } from './helpers/temp-dirs.js';

function fakeContext(home: string, env: NodeJS.ProcessEnv = {}): { ctx: Context; stderr: () => string } {
  let err = '';
  const sink = { write: (chunk: string | Uint8Array) => ((err += chunk.toString()), true) };
  const out = new Output({ stdout: { write: () => true }, stderr: sink, env: {} });
  const ctx: Context = {
    env,
    cwd: home,
    homeDir: home,
    platform: process.platform,
    stdin: new PassThrough(),
    out,
    globals: { json: false, quiet: false, verbose: false, color: false, input: false },
    secrets: new KnownSecrets(),
    now: () => new Date(),
  };
  return { ctx, stderr: () => err };
}

const entry = (token: string) => ({
  access_token: token,
  email: 'a@example.com',
  expires_at: null,
  saved_at: '2026-01-01T00:00:00.000Z',
});

test('default path is ~/.config/svcctl/credentials.json; XDG_CONFIG_HOME moves it; a relative XDG_CONFIG_HOME is ignored', async () => {
  const home = await tempDir();
  assert.equal(credentialsPath(fakeContext(home).ctx), join(home, '.config', 'svcctl', 'credentials.json'));
  assert.equal(credentialsPath(fakeContext(home, { XDG_CONFIG_HOME: '/x/cfg' }).ctx), '/x/cfg/svcctl/credentials.json');
  assert.equal(
    credentialsPath(fakeContext(home, { XDG_CONFIG_HOME: 'rel' }).ctx),
    join(home, '.config', 'svcctl', 'credentials.json'),
  );
});

test('save creates the file with mode 0600, keyed by base URL, and tokens round-trip', async () => {
  const home = await tempDir();
  const { ctx } = fakeContext(home);
  await saveToken(ctx, 'https://a.example.com/api', entry('tok-a'));
  await saveToken(ctx, 'http://127.0.0.1:1/api', entry('tok-b'));
  const path = credentialsPath(ctx);
  assert.equal((await stat(path)).mode & 0o777, 0o600);
  const onDisk = JSON.parse(await readFile(path, 'utf8'));
  assert.equal(onDisk.version, 1);
  assert.equal(onDisk.tokens['https://a.example.com/api'].access_token, 'tok-a');
  assert.equal((await readSavedToken(ctx, 'http://127.0.0.1:1/api'))?.access_token, 'tok-b');
  assert.equal(await readSavedToken(ctx, 'https://other.example.com/api'), undefined);
  // no temporary files left behind
  assert.deepEqual(await readdir(join(home, '.config', 'svcctl')), ['credentials.json']);
});

test('an existing file with looser rights ends up 0600 after a save (and a warning is given on read)', async () => {
  const home = await tempDir();
  const { ctx, stderr } = fakeContext(home);
  const path = credentialsPath(ctx);
  await mkdir(join(home, '.config', 'svcctl'), { recursive: true });
  await writeFile(path, JSON.stringify({ version: 1, tokens: { 'https://a.example.com/api': entry('old') } }), {
    mode: 0o644,
  });
  await chmod(path, 0o644);
  assert.equal((await readSavedToken(ctx, 'https://a.example.com/api'))?.access_token, 'old');
  assert.match(stderr(), /can be read by other users \(mode 644\)/);
  await saveToken(ctx, 'https://b.example.com/api', entry('new'));
  assert.equal(stderr().match(/can be read by other users/g)?.length, 1, 'the save itself does not warn again');
  assert.equal((await stat(path)).mode & 0o777, 0o600);
  assert.equal((await readSavedToken(ctx, 'https://a.example.com/api'))?.access_token, 'old');
  assert.equal(stderr().match(/can be read by other users/g)?.length, 1, 'a 0600 file is not warned about');
});

test('a corrupt file is exit 7 with its path and is never overwritten', async () => {
  const home = await tempDir();
  const { ctx } = fakeContext(home);
  const path = credentialsPath(ctx);
  await mkdir(join(home, '.config', 'svcctl'), { recursive: true });
  await writeFile(path, '{"version":1,"tokens":{', { mode: 0o600 });
  await assert.rejects(
    saveToken(ctx, 'https://a.example.com/api', entry('x')),
    (error: { exitCode: number; message: string }) => {
      assert.equal(error.exitCode, 7);
      assert.ok(error.message.includes(path));
      return true;
    },
  );
  await assert.rejects(readSavedToken(ctx, 'https://a.example.com/api'), { exitCode: 7 });
  assert.equal(await readFile(path, 'utf8'), '{"version":1,"tokens":{');
  await writeFile(path, '[1,2]');
  await assert.rejects(readSavedToken(ctx, 'https://a.example.com/api'), { exitCode: 7 });
});

test('forget removes one entry, and the file when it was the last', async () => {
  const home = await tempDir();
  const { ctx } = fakeContext(home);
  await saveToken(ctx, 'https://a.example.com/api', entry('a'));
  await saveToken(ctx, 'https://b.example.com/api', entry('b'));
  assert.equal(await forgetToken(ctx, 'https://a.example.com/api'), `from ${credentialsPath(ctx)}`);
  assert.equal(await forgetToken(ctx, 'https://a.example.com/api'), undefined);
  assert.equal((await readSavedToken(ctx, 'https://b.example.com/api'))?.access_token, 'b');
  assert.equal(await forgetToken(ctx, 'https://b.example.com/api'), `from ${credentialsPath(ctx)}`);
  await assert.rejects(stat(credentialsPath(ctx)), { code: 'ENOENT' });
});
