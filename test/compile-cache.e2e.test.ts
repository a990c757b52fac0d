// The compile cache (src/runtime/compile-cache.ts): where it lives, that a second run uses what the first saved
// (the cache files stay the same files), that a damaged or stale cache costs nothing but speed, and
// that NODE_DISABLE_COMPILE_CACHE turns it off. Runs the built CLI with a temp HOME.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import Module from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { compileCacheDir } from '../src/runtime/compile-cache.js';
import { makeTempDir, ROOT, spawnCli } from './helpers/cli.js';

const SECRET = 'compile-cache-test-secret';
const BUILT_IN = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

async function signFile(home: string, env: Record<string, string> = {}): Promise<string> {
  const body = join(home, 'body.json');
  await writeFile(body, '{"event":{"title":"cache"}}');
  const result = await spawnCli(['event', 'sign', body], { home, env: { SERVICE_HMAC_SECRET: SECRET, ...env } });
  assert.equal(result.code, 0, result.stderr);
  return result.stdout;
}

const expected = `sha256=${createHmac('sha256', SECRET).update('{"event":{"title":"cache"}}').digest('hex')}\n`;
const cacheDirOf = (home: string) => compileCacheDir({}, home, process.versions.v8, process.arch)!;

async function cacheEntries(dir: string): Promise<Map<string, { ino: number; mode: number }>> {
  const entries = new Map<string, { ino: number; mode: number }>();
  for (const name of await readdir(dir)) {
    const info = await stat(join(dir, name));
    entries.set(name, { ino: info.ino, mode: info.mode & 0o777 });
  }
  return entries;
}

describe('compileCacheDir', () => {
  it('is $XDG_CACHE_HOME/svcctl/compile-cache/v8-<version>-<arch>, else under ~/.cache', () => {
    assert.equal(compileCacheDir({ XDG_CACHE_HOME: '/x/cache' }, '/home/u', '11.3', 'x64'), join('/x/cache', 'svcctl', 'compile-cache', 'v8-11.3-x64'));
    assert.equal(compileCacheDir({}, '/home/u', '11.3', 'arm64'), join('/home/u', '.cache', 'svcctl', 'compile-cache', 'v8-11.3-arm64'));
  });

  it('ignores a relative XDG_CACHE_HOME, as the XDG spec says', () => {
    assert.equal(compileCacheDir({ XDG_CACHE_HOME: 'cache' }, '/home/u', '11.3', 'x64'), join('/home/u', '.cache', 'svcctl', 'compile-cache', 'v8-11.3-x64'));
  });

  it('is off with NODE_DISABLE_COMPILE_CACHE', () => {
    assert.equal(compileCacheDir({ NODE_DISABLE_COMPILE_CACHE: '1' }, '/home/u', '11.3', 'x64'), undefined);
  });
});

describe('the compile cache of the CLI', () => {
  it('is saved by the first run, private, and used as it is by the next', async () => {
    const home = await makeTempDir('svcctl-cache-');
    assert.equal(await signFile(home), expected);
    const dir = cacheDirOf(home);
    assert.equal((await stat(dir)).mode & 0o777, 0o700);
    const first = await cacheEntries(dir);
    assert.ok(first.size > 0, 'the first run saved nothing');
    if (BUILT_IN) return; // Node 22.1+: Node's own cache, its own file names
    const dist = [...(await readdir(join(ROOT, 'dist'))), ...(await readdir(join(ROOT, 'dist', 'chunks')))];
    for (const [name, { mode }] of first) {
      assert.match(name, /\.cjs\.\d+\.\d+\.v8$/);
      assert.ok(dist.includes(name.slice(0, name.indexOf('.cjs.') + 4)), `${name} is not the cache of a dist/ file`);
      assert.equal(mode, 0o600, name);
    }
    assert.equal(await signFile(home), expected);
    // A cache V8 refused would have been saved again, as a new file: every one is the same file.
    assert.deepEqual(await cacheEntries(dir), first);
  });

  it('replaces a damaged cache and removes the caches of files this build does not have', { skip: BUILT_IN }, async () => {
    const home = await makeTempDir('svcctl-cache-');
    await signFile(home);
    const dir = cacheDirOf(home);
    const [damaged] = [...(await cacheEntries(dir)).keys()];
    await writeFile(join(dir, damaged!), 'not a V8 code cache');
    await writeFile(join(dir, 'chunk-GONE1234.cjs.100.1.v8'), 'an earlier build');
    assert.equal(await signFile(home), expected);
    assert.notEqual(await readFile(join(dir, damaged!), 'utf8'), 'not a V8 code cache');
    assert.equal(existsSync(join(dir, 'chunk-GONE1234.cjs.100.1.v8')), false);
  });

  it('costs nothing when its folder cannot be made (XDG_CACHE_HOME under a file)', async () => {
    const home = await makeTempDir('svcctl-cache-');
    const file = join(home, 'not-a-folder');
    await writeFile(file, 'a file');
    const run = await spawnCli(['event', 'sign', file], { home, env: { SERVICE_HMAC_SECRET: SECRET, XDG_CACHE_HOME: join(file, 'cache') } });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '');
    assert.equal(run.stdout, `sha256=${createHmac('sha256', SECRET).update('a file').digest('hex')}\n`);
  });

  it('is neither read nor written with NODE_DISABLE_COMPILE_CACHE=1', async () => {
    const home = await makeTempDir('svcctl-cache-');
    assert.equal(await signFile(home, { NODE_DISABLE_COMPILE_CACHE: '1' }), expected);
    assert.equal(existsSync(join(home, '.cache')), false);
  });
});
