// The compile cache (src/startup/compile-cache.ts) without a process: where it lives, and how its loader runs
// dist/ files (on a temp folder of small CommonJS files). What a real second process does with the cache is in
// startup.e2e.test.ts.
import assert from 'node:assert/strict';
import { chmod, chown, link, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, it } from 'node:test';
import { Script } from 'node:vm';
import { CachedLoader, cacheFileName, compileCacheDir, SAVING_RUNS } from '../src/startup/compile-cache.js';
import { tempDir } from './helpers/temp-dirs.js';

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

  it("is off with a relative HOME or XDG_CACHE_HOME (HOME='' too): that folder is in the current one", () => {
    for (const [env, home] of [
      [{ XDG_CACHE_HOME: 'cache' }, '/home/u'],
      [{}, ''],
      [{}, 'home/u'],
      [{ XDG_CACHE_HOME: '.cache' }, ''],
    ] as const)
      assert.equal(compileCacheDir(env, home, '11.3', 'x64'), undefined, JSON.stringify([env, home]));
    assert.equal(
      compileCacheDir({ XDG_CACHE_HOME: '/x/cache' }, '', '11.3', 'x64'),
      join('/x/cache', 'svcctl', 'compile-cache', 'v8-11.3-x64'),
    );
  });

  it('is off with NODE_DISABLE_COMPILE_CACHE', () => {
    assert.equal(compileCacheDir({ NODE_DISABLE_COMPILE_CACHE: '1' }, '/home/u', '11.3', 'x64'), undefined);
  });
});

describe('CachedLoader', () => {
  async function distWith(files: Record<string, string>): Promise<{ dist: string; cache: string }> {
    const root = await tempDir('svcctl-loader-');
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

  it('the runs after the first save the caches again until SAVING_RUNS have: each adds what its command called', async () => {
    const { dist, cache } = await distWith({
      'main.cjs': [
        'exports.check = () => "dry";',
        'exports.send = () => [1, 2, 3].map((n) => n * 2).concat(require("./chunks/http.cjs"));',
      ].join('\n'),
      'chunks/http.cjs': 'module.exports = "sent";',
    });
    const main = join(dist, 'main.cjs');
    /** One run; what the cache folder holds after it, as file name → [inode, size]. */
    const run = (use: (program: { check(): string; send(): unknown[] }) => unknown): Map<string, number[]> => {
      const loader = new CachedLoader(cache, dist, require);
      use(loader.load(main) as { check(): string; send(): unknown[] });
      loader.save();
      return new Map(
        readdirSync(cache).map((name) => {
          const { ino, size } = statSync(join(cache, name));
          return [name, [ino, size]];
        }),
      );
    };
    const dry = run((program) => assert.equal(program.check(), 'dry'));
    assert.deepEqual(
      [...dry.keys()].map((name) => name.split('.')[0]),
      ['main'],
    );
    const mainCache = [...dry.keys()][0]!;
    // The next run calls send(): main.cjs's cache is written again, with send() in it, and http.cjs gets one.
    const sent = run((program) => assert.deepEqual(program.send(), [2, 4, 6, 'sent']));
    assert.deepEqual([...sent.keys()].map((name) => name.split('.')[0]).sort(), ['http', 'main']);
    assert.notEqual(sent.get(mainCache)![0], dry.get(mainCache)![0], "main.cjs's cache is a new file");
    assert.ok(sent.get(mainCache)![1]! > dry.get(mainCache)![1]!, 'it holds the functions send() compiled');
    // http.cjs's cache has been saved by one run: the next runs save again, until every cache has SAVING_RUNS.
    let runs = 2;
    let before = sent;
    for (;;) {
      const after = run((program) => program.send());
      runs += 1;
      if ([...after].every(([name, [ino]]) => before.get(name)?.[0] === ino)) break;
      assert.ok(runs <= SAVING_RUNS + 2, `run ${runs} still saved`);
      before = after;
    }
    assert.equal(runs, SAVING_RUNS + 2, 'http.cjs, first saved by the second run, is saved by SAVING_RUNS runs');
    // A cache V8 reads only after the header: a file without one (an earlier svcctl's) is compiled afresh.
    writeFileSync(join(cache, mainCache), readFileSync(join(cache, mainCache)).subarray(5));
    const loader = new CachedLoader(cache, dist, require);
    loader.load(main);
    assert.equal(loader.unsavedCount(), 1);
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

describe('a cache file someone else could have written is never run', () => {
  const UID = process.getuid?.() ?? 0;
  const SOURCE = 'module.exports = { real: true };';
  const wrap = (source: string): string =>
    `(function (exports, require, module, __filename, __dirname) {\n${source}\n})`;

  /** A dist/ with one file, and beside it the cache V8 would make for other code of the same length. */
  async function planted(): Promise<{ dist: string; main: string; dir: string; file: string; data: Buffer }> {
    const root = await tempDir('svcctl-poison-');
    const dist = join(root, 'dist');
    await mkdir(dist);
    const main = join(dist, 'main.cjs');
    await writeFile(main, SOURCE);
    const evil = 'globalThis.svcctlPlanted = 1;'.padEnd(SOURCE.length, ' ');
    assert.equal(evil.length, SOURCE.length);
    const v8Data = new Script(wrap(evil), { filename: main, lineOffset: -1 }).createCachedData();
    const dir = join(root, 'cache', 'svcctl', 'compile-cache', 'v8-test');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const { size, mtimeMs } = await stat(main);
    const file = join(dir, cacheFileName(main, size, mtimeMs));
    // A cache file as the loader writes it: 'svc1', the number of runs that saved it, then V8's data.
    const data = Buffer.concat([Buffer.from('svc1'), Buffer.of(SAVING_RUNS), v8Data]);
    await writeFile(file, data, { mode: 0o600 });
    return { dist, main, dir, file, data };
  }

  function runs(dist: string, main: string, dir: string): { planted: boolean; exports: unknown } {
    delete (globalThis as { svcctlPlanted?: number }).svcctlPlanted;
    const exports = new CachedLoader(dir, dist, require, UID).load(main);
    return { planted: (globalThis as { svcctlPlanted?: number }).svcctlPlanted === 1, exports };
  }

  it("this user's own private cache is used as it is (what makes a planted one dangerous)", async () => {
    const { dist, main, dir } = await planted();
    assert.equal(runs(dist, main, dir).planted, true, 'V8 ran the cached code instead of the source');
  });

  it('a cache folder, or one above it up to svcctl/, that others may write: not read', async () => {
    for (const up of [0, 1, 2]) {
      const { dist, main, dir } = await planted();
      const folder = up === 0 ? dir : up === 1 ? join(dir, '..') : join(dir, '..', '..');
      await chmod(folder, 0o777);
      assert.deepEqual(runs(dist, main, dir), { planted: false, exports: { real: true } }, `${up} up`);
    }
  });

  it('a cache that others may read, as `git clone` makes it (0755 folders, 0644 files): not read', async () => {
    // An absolute XDG_CACHE_HOME into a clone (direnv's `export XDG_CACHE_HOME=$PWD/.cache`) passes every check of
    // owner and writers: git makes the clone's files the user's, with the umask's modes. svcctl's own are private.
    for (const make of [
      (file: string) => chmod(file, 0o644),
      (file: string) => chmod(join(file, '..'), 0o755),
      (file: string) => chmod(join(file, '..', '..', '..'), 0o755),
    ]) {
      const { dist, main, dir, file } = await planted();
      await make(file);
      assert.deepEqual(runs(dist, main, dir), { planted: false, exports: { real: true } });
    }
  });

  it('a cache file others may write, a link, or a file with a second name: not read', async () => {
    const cases: Array<(file: string, data: Buffer) => Promise<void>> = [
      (file) => chmod(file, 0o666),
      async (file, data) => {
        const elsewhere = join(await tempDir('svcctl-poison-'), 'data.v8');
        await writeFile(elsewhere, data, { mode: 0o600 });
        await rm(file);
        await symlink(elsewhere, file);
      },
      async (file) => link(file, `${file}.second-name`),
    ];
    for (const make of cases) {
      const { dist, main, dir, file, data } = await planted();
      await make(file, data);
      assert.deepEqual(runs(dist, main, dir), { planted: false, exports: { real: true } });
    }
  });

  it('a link planted where a cache folder goes: nothing is made or written through it', async () => {
    for (const at of ['svcctl', 'compile-cache', 'v8-test']) {
      const { dist, main } = await planted();
      const base = await tempDir('svcctl-cache-base-');
      const target = await tempDir('svcctl-link-target-');
      const chain = ['svcctl', 'compile-cache', 'v8-test'];
      const upTo = chain.slice(0, chain.indexOf(at));
      await mkdir(join(base, ...upTo), { recursive: true, mode: 0o700 });
      await symlink(target, join(base, ...upTo, at));
      const loader = new CachedLoader(join(base, ...chain), dist, require, UID);
      loader.load(main);
      loader.save();
      assert.deepEqual(await readdir(target), [], `a link at ${at}/`);
    }
  });

  it("another user's folder or file: not read, and nothing is saved into that folder", {
    skip: UID !== 0 && 'needs root to chown',
  }, async () => {
    const { dist, main, dir, file } = await planted();
    await chown(file, 65534, 65534);
    assert.equal(runs(dist, main, dir).planted, false);
    const other = await planted();
    await chown(other.dir, 65534, 65534);
    const loader = new CachedLoader(other.dir, other.dist, require, UID);
    loader.load(other.main);
    const before = await readdir(other.dir);
    loader.save();
    assert.deepEqual(await readdir(other.dir), before);
    assert.deepEqual(await readFile(other.file), other.data);
  });
});
