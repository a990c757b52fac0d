// The compile cache (src/runtime/compile-cache.ts) without a process: where it lives, and how its loader runs
// dist/ files (on a temp folder of small CommonJS files). What a real second process does with the cache is in
// startup.e2e.test.ts.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { describe, it } from 'node:test';
import { CachedLoader, compileCacheDir } from '../src/runtime/compile-cache.js';
import { makeTempDir } from './helpers/cli.js';

const require = createRequire(import.meta.url);

describe('compileCacheDir', () => {
  it('is $XDG_CACHE_HOME/svcctl/compile-cache/v8-<version>-<arch>, else under ~/.cache', () => {
    assert.equal(
      compileCacheDir({ XDG_CACHE_HOME: '/x/cache' }, '/home/u', '11.3', 'x64'),
      join('/x/cache', 'svcctl', 'compile-cache', 'v8-11.3-x64'),
    );
    assert.equal(
      compileCacheDir({}, '/home/u', '11.3', 'arm64'),
      join('/home/u', '.cache', 'svcctl', 'compile-cache', 'v8-11.3-arm64'),
    );
  });

  it('ignores a relative XDG_CACHE_HOME, as the XDG spec says', () => {
    assert.equal(
      compileCacheDir({ XDG_CACHE_HOME: 'cache' }, '/home/u', '11.3', 'x64'),
      join('/home/u', '.cache', 'svcctl', 'compile-cache', 'v8-11.3-x64'),
    );
  });

  it('is off with NODE_DISABLE_COMPILE_CACHE', () => {
    assert.equal(compileCacheDir({ NODE_DISABLE_COMPILE_CACHE: '1' }, '/home/u', '11.3', 'x64'), undefined);
  });
});

describe('CachedLoader', () => {
  async function distWith(files: Record<string, string>): Promise<{ dist: string; cache: string }> {
    const root = await makeTempDir('svcctl-loader-');
    const dist = join(root, 'dist');
    await mkdir(join(dist, 'chunks'), { recursive: true });
    for (const [name, source] of Object.entries(files)) await writeFile(join(dist, name), source);
    return { dist, cache: join(root, 'cache') };
  }

  it('runs each file once, gives it its siblings by relative path and the rest from the given require', async () => {
    const { dist, cache } = await distWith({
      'main.cjs':
        'const a = require("./chunks/a.cjs"); const b = require("./chunks/b.cjs"); module.exports = { a, b, sep: require("node:path").sep };',
      'chunks/a.cjs':
        'globalThis.svcctlLoaderRuns = (globalThis.svcctlLoaderRuns ?? 0) + 1; module.exports = { name: "a", file: __filename };',
      'chunks/b.cjs': 'exports.a = require("./a.cjs"); exports.self = this === exports;',
    });
    const asked: string[] = [];
    const loader = new CachedLoader(cache, dist, (id) => (asked.push(id), require(id)));
    const main = loader.load(join(dist, 'main.cjs')) as { a: unknown; b: { a: unknown; self: boolean }; sep: string };
    assert.deepEqual(main.a, { name: 'a', file: join(dist, 'chunks', 'a.cjs') });
    assert.equal(main.b.a, main.a, 'a chunk required twice is one module');
    assert.equal(main.b.self, true);
    assert.equal((globalThis as { svcctlLoaderRuns?: number }).svcctlLoaderRuns, 1);
    assert.equal(main.sep, sep);
    assert.deepEqual(asked, ['node:path']);
  });

  it('reports an error at its line in the dist/ file', async () => {
    const { dist, cache } = await distWith({ 'main.cjs': '"use strict";\n\nthrow new Error("on line 3");' });
    const loader = new CachedLoader(cache, dist, require);
    assert.throws(
      () => loader.load(join(dist, 'main.cjs')),
      (error: Error) => error.stack!.includes(`${join(dist, 'main.cjs')}:3`),
    );
  });
});
