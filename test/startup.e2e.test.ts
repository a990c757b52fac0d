// svcctl as a process starting up: the built CLI answers --version itself (bin/svcctl.js) as commander would, and
// its compile cache (src/startup/compile-cache.ts) is saved by a first run, private, used as it is by the next
// process (the cache files stay the same files); a damaged or stale cache costs nothing but speed, and
// NODE_DISABLE_COMPILE_CACHE turns it off. Where the cache lives and how the loader runs files: compile-cache.test.ts.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { CachedLoader, cacheFileName, compileCacheDir, SAVING_RUNS } from '../src/startup/compile-cache.js';
import { Script } from 'node:vm';
import { ROOT, spawnCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const SECRET = 'compile-cache-test-secret';
const require = createRequire(import.meta.url);

async function signFile(home: string, env: Record<string, string> = {}): Promise<string> {
  const body = join(home, 'body.json');
  await writeFile(body, '{"event":{"title":"cache"}}');
  const result = await spawnCli(['event', 'sign', body], { home, env: { SERVICE_HMAC_SECRET: SECRET, ...env } });
  assert.equal(result.code, 0, result.stderr);
  return result.stdout;
}

const expected = `sha256=${createHmac('sha256', SECRET).update('{"event":{"title":"cache"}}').digest('hex')}\n`;
const cacheDirOf = (home: string) => compileCacheDir({}, home, process.versions.v8, process.arch)!;

/**
 * A clone carrying the cache V8 takes for dist/main.cjs (it matches by length) but holding other code, at
 * .cache/svcctl/compile-cache/v8-<version>-<arch>/ of the clone: folders of `folderMode`, the file of `fileMode`.
 */
async function cloneWithPlantedCache(
  folderMode: number,
  fileMode: number,
): Promise<{ home: string; clone: string; planted: string; name: string }> {
  const home = await tempDir('svcctl-cache-');
  const clone = await tempDir('svcctl-clone-');
  const main = join(ROOT, 'dist', 'main.cjs');
  const source = await readFile(main, 'utf8');
  const evil = "process.stdout.write('PLANTED\\n'); process.exit(0);".padEnd(source.length, ' ');
  const wrap = (text: string): string => `(function (exports, require, module, __filename, __dirname) {\n${text}\n})`;
  const data = new Script(wrap(evil), { filename: main, lineOffset: -1 }).createCachedData();
  const { size, mtimeMs } = await stat(main);
  const planted = join(clone, '.cache', 'svcctl', 'compile-cache', `v8-${process.versions.v8}-${process.arch}`);
  await mkdir(planted, { recursive: true });
  for (let folder = planted; folder !== clone; folder = dirname(folder)) await chmod(folder, folderMode);
  const name = cacheFileName(main, size, mtimeMs);
  await writeFile(join(planted, name), Buffer.concat([Buffer.from('svc1'), Buffer.of(SAVING_RUNS), data]));
  await chmod(join(planted, name), fileMode);
  await writeFile(join(home, 'body.json'), '{"event":{"title":"cache"}}');
  return { home, clone, planted, name };
}

/** `event sign` of the home's body.json, run in `cwd`. */
const signIn = (home: string, cwd: string, env: Record<string, string | undefined>) =>
  spawnCli(['event', 'sign', join(home, 'body.json')], { home, cwd, env: { SERVICE_HMAC_SECRET: SECRET, ...env } });

async function cacheEntries(dir: string): Promise<Map<string, { ino: number; mode: number }>> {
  const entries = new Map<string, { ino: number; mode: number }>();
  for (const name of await readdir(dir)) {
    const info = await stat(join(dir, name));
    entries.set(name, { ino: info.ino, mode: info.mode & 0o777 });
  }
  return entries;
}

describe('--version of the built CLI', () => {
  it("--version and -V print package.json's version, as `svcctl event --version` (commander) does", async () => {
    const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    for (const args of [['--version'], ['-V'], ['event', '--version']]) {
      // The build sets the version and bin/svcctl.js answers --version itself: only the built CLI shows both.
      const result = await spawnCli(args);
      assert.equal(result.code, 0, args.join(' '));
      assert.equal(result.stdout, `${version}\n`, args.join(' '));
      assert.equal(result.stderr, '');
    }
  });
});

describe('CachedLoader across processes', () => {
  it('saves a cache per file that V8 accepts in the next process, and none once SAVING_RUNS runs have saved it', async () => {
    const root = await tempDir('svcctl-loader-');
    const [dist, cache] = [join(root, 'dist'), join(root, 'cache')];
    await mkdir(dist);
    await writeFile(join(dist, 'main.cjs'), 'module.exports = function twice(n) { return 2 * n; };');
    for (let run = 1; run <= SAVING_RUNS; run++) {
      const loader = new CachedLoader(cache, dist, require);
      assert.equal((loader.load(join(dist, 'main.cjs')) as (n: number) => number)(21), 42);
      assert.equal(loader.unsavedCount(), 1, `run ${run} saves`);
      loader.save();
    }
    const [name, ...others] = await readdir(cache);
    assert.deepEqual(others, []);
    assert.match(name!, /^main\.cjs\.\d+\.\d+\.v8$/);
    assert.equal((await stat(join(cache, name!))).mode & 0o777, 0o600);
    // A fresh process: in this one V8 would find the script in its own in-memory cache.
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `
      import { CachedLoader } from ${JSON.stringify(join(ROOT, 'src', 'startup', 'compile-cache.ts'))};
      import { createRequire } from 'node:module';
      const loader = new CachedLoader(${JSON.stringify(cache)}, ${JSON.stringify(dist)}, createRequire(import.meta.url));
      console.log(loader.load(${JSON.stringify(join(dist, 'main.cjs'))})(4), loader.unsavedCount());
    `,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(child.stderr, '');
    assert.equal(child.stdout, '8 0\n');
  });
});

describe('the compile cache of the CLI', { concurrency: true }, () => {
  it('is saved by the first runs, private, and used as it is once SAVING_RUNS runs have saved it', async () => {
    const home = await tempDir('svcctl-cache-');
    assert.equal(await signFile(home), expected);
    const dir = cacheDirOf(home);
    assert.equal((await stat(dir)).mode & 0o777, 0o700);
    const first = await cacheEntries(dir);
    assert.ok(first.size > 0, 'the first run saved nothing');
    const dist = [...(await readdir(join(ROOT, 'dist'))), ...(await readdir(join(ROOT, 'dist', 'chunks')))];
    for (const [name, { mode }] of first) {
      assert.match(name, /\.cjs\.\d+\.\d+\.v8$/);
      assert.ok(dist.includes(name.slice(0, name.indexOf('.cjs.') + 4)), `${name} is not the cache of a dist/ file`);
      assert.equal(mode, 0o600, name);
    }
    // The next runs save it again (each adds what it called), each time as a new file, until SAVING_RUNS have.
    let last = first;
    for (let run = 2; run <= SAVING_RUNS; run++) {
      assert.equal(await signFile(home), expected);
      const now = await cacheEntries(dir);
      assert.deepEqual([...now.keys()], [...last.keys()]);
      assert.ok(
        [...now].every(([name, { ino }]) => last.get(name)!.ino !== ino),
        `run ${run} saved each file again`,
      );
      last = now;
    }
    assert.equal(await signFile(home), expected);
    // A cache V8 refused would have been saved again, as a new file: every one is the same file.
    assert.deepEqual(await cacheEntries(dir), last);
  });

  it('replaces a damaged cache and removes the caches of files this build does not have', async () => {
    const home = await tempDir('svcctl-cache-');
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
    const home = await tempDir('svcctl-cache-');
    const file = join(home, 'not-a-folder');
    await writeFile(file, 'a file');
    const run = await spawnCli(['event', 'sign', file], {
      home,
      env: { SERVICE_HMAC_SECRET: SECRET, XDG_CACHE_HOME: join(file, 'cache') },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '');
    assert.equal(run.stdout, `sha256=${createHmac('sha256', SECRET).update('a file').digest('hex')}\n`);
  });

  it("with HOME='' or a relative HOME or XDG_CACHE_HOME: a cache a cloned project carries is not run", async () => {
    const { home, clone, planted, name } = await cloneWithPlantedCache(0o700, 0o600);
    // Config and state stay in the temp home: for HOME='' svcctl takes the user database's home.
    const folders = { XDG_CONFIG_HOME: join(home, 'c'), XDG_STATE_HOME: join(home, 's'), XDG_CACHE_HOME: undefined };
    for (const env of [{ HOME: '' }, { HOME: '.' }, { XDG_CACHE_HOME: '.cache' }]) {
      const run = await signIn(home, clone, { ...folders, ...env });
      assert.equal(run.stdout, expected, JSON.stringify(env));
      assert.equal(run.code, 0, run.stderr);
    }
    assert.deepEqual(await readdir(planted), [name], 'nothing saved into the clone');
  });

  it("with an absolute XDG_CACHE_HOME into the clone ($PWD/.cache): the clone's cache, as git made it, is not run", async () => {
    const { home, clone } = await cloneWithPlantedCache(0o755, 0o644);
    const run = await signIn(home, clone, { XDG_CACHE_HOME: join(clone, '.cache') });
    assert.equal(run.stdout, expected);
    assert.equal(run.code, 0, run.stderr);
  });

  it('with an absolute XDG_CACHE_HOME into the clone, cloned under umask 077 (private modes), run from a subfolder', async () => {
    const { home, clone } = await cloneWithPlantedCache(0o700, 0o600);
    await mkdir(join(clone, '.git'));
    await mkdir(join(clone, 'src'));
    const run = await signIn(home, join(clone, 'src'), { XDG_CACHE_HOME: join(clone, '.cache') });
    assert.equal(run.stdout, expected);
    assert.equal(run.code, 0, run.stderr);
  });

  it('is neither read nor written with NODE_DISABLE_COMPILE_CACHE=1', async () => {
    const home = await tempDir('svcctl-cache-');
    assert.equal(await signFile(home, { NODE_DISABLE_COMPILE_CACHE: '1' }), expected);
    assert.equal(existsSync(join(home, '.cache')), false);
  });
});
