/**
 * Loads svcctl's own files (dist/) with V8's code cache, kept between runs in $XDG_CACHE_HOME/svcctl/compile-cache
 * (else ~/.cache/svcctl/compile-cache). Compiling what `event send` runs costs ~20 ms of its start-up on
 * Node 20, 22 and 24 alike (BENCHMARKS.md, "Start-up").
 * Public APIs only: each dist/ file is compiled with vm.Script and the cache saved for it, and given a
 * `require` that loads its sibling files the same way and anything else through Node's own `require`.
 * At exit, the cache of every file compiled without one is saved with script.createCachedData(), which
 * then holds the functions compiled while running too. Node's module.enableCompileCache() saves a
 * file's cache when the file is compiled, before it runs: on Node 22 and 24 that cache made no difference
 * that the benchmark could show, since V8 compiles most functions lazily, on their first call.
 * A cache is used only for the file it was made from: its name holds the file's name (with esbuild's
 * content hash), size and modification time, and V8 refuses one made by another V8 version or flags.
 * NODE_DISABLE_COMPILE_CACHE=1 (Node's own switch) turns it off. The folder is 0700 and its files 0600;
 * a cache that cannot be read or written costs only its speed: nothing fails because of it.
 * This module is its own entry point (dist/compile-cache.cjs), loaded by bin/svcctl.js, and imports nothing of svcctl.
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, sep } from 'node:path';
import { Script } from 'node:vm';

export interface CompileCacheSettings {
  env: NodeJS.ProcessEnv;
  homeDir: string;
  /** The folder of the files to cache (dist/). */
  distDir: string;
  /** Loads what is not a dist/ file: Node's built-in modules, optional native packages. */
  require: (id: string) => unknown;
}

/** The cache folder, one per V8 version and machine architecture; undefined when it is turned off. */
export function compileCacheDir(env: NodeJS.ProcessEnv, homeDir: string, v8Version: string, arch: string): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const xdg = env.XDG_CACHE_HOME;
  // As for XDG_CONFIG_HOME: a relative XDG_CACHE_HOME is invalid and ignored.
  const base = xdg && isAbsolute(xdg) ? xdg : join(homeDir, '.cache');
  return join(base, 'svcctl', 'compile-cache', `v8-${v8Version}-${arch}`);
}

/** The cache file of one source file: its name says which file, of which size and modification time. */
export function cacheFileName(file: string, size: number, mtimeMs: number): string {
  return `${basename(file)}.${size}.${Math.trunc(mtimeMs)}.v8`;
}

/** The exports of `entry` (a dist/ file), loaded with the cache when it is on, else by Node's `require`. */
export function loadWithCompileCache(entry: string, settings: CompileCacheSettings): unknown {
  const dir = compileCacheDir(settings.env, settings.homeDir, process.versions.v8, process.arch);
  if (dir === undefined) return settings.require(entry);
  const loader = new CachedLoader(dir, settings.distDir, settings.require);
  process.once('exit', () => loader.save());
  return loader.load(entry);
}

/** A CommonJS wrapper, as Node's, with the source's first line kept as line 1 (lineOffset: -1). */
const wrap = (source: string): string => `(function (exports, require, module, __filename, __dirname) {\n${source}\n})`;

/** Loads the files of distDir with the caches in dir; save() writes those that were missing or refused. */
export class CachedLoader {
  private readonly modules = new Map<string, { exports: unknown }>();
  private readonly unsaved: Array<{ name: string; script: Script }> = [];
  private readonly prefix: string;

  constructor(
    private readonly dir: string,
    distDir: string,
    private readonly outside: (id: string) => unknown,
  ) {
    this.prefix = distDir + sep;
  }

  load(filename: string): unknown {
    const known = this.modules.get(filename);
    if (known) return known.exports;
    const module = { exports: {} as unknown };
    this.modules.set(filename, module);
    const source = readFileSync(filename, 'utf8');
    const { size, mtimeMs } = statSync(filename);
    const name = cacheFileName(filename, size, mtimeMs);
    const cachedData = readCache(join(this.dir, name));
    const script = new Script(wrap(source), { filename, lineOffset: -1, cachedData });
    if (cachedData === undefined || script.cachedDataRejected) this.unsaved.push({ name, script });
    const folder = dirname(filename);
    // esbuild's output names its sibling chunks by relative paths; everything else is Node's to find.
    const require = (id: string): unknown => (id.startsWith('./') || id.startsWith('../') ? this.load(join(folder, id)) : this.outside(id));
    const wrapper = script.runInThisContext() as (...args: unknown[]) => unknown;
    wrapper.call(module.exports, module.exports, require, module, filename, folder);
    return module.exports;
  }

  /** How many of the files loaded had no cache V8 accepted. */
  unsavedCount(): number {
    return this.unsaved.length;
  }

  save(): void {
    if (this.unsaved.length === 0) return;
    try {
      makePrivateFolder(this.dir);
      for (const { name, script } of this.unsaved) {
        // A whole file or none: another svcctl may be reading or writing the same cache.
        const partial = join(this.dir, `.${name}.${process.pid}`);
        // Exclusive create: never written through a link left at that name (a stale one is removed first).
        rmSync(partial, { force: true });
        writeFileSync(partial, script.createCachedData(), { mode: 0o600, flag: 'wx' });
        renameSync(partial, join(this.dir, name));
      }
      removeStale(this.dir, this.prefix);
    } catch {
      // No cache this time (read-only home, full disk): the program works the same.
    }
  }
}

function readCache(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Creates dir and its missing parents 0700, whatever the umask: nobody else may change code svcctl runs.
 * (The synchronous twin of fs/private-dir.ts ensureFolder: this module imports nothing of svcctl, and runs at exit.)
 */
function makePrivateFolder(dir: string): void {
  const first = mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (first === undefined) return;
  for (let folder = dir; ; folder = dirname(folder)) {
    chmodSync(folder, 0o700);
    if (folder === first || dirname(folder) === folder) break;
  }
}

/** Caches that no file of this build matches (an earlier build's) go. */
function removeStale(dir: string, prefix: string): void {
  for (const entry of readdirSync(dir)) {
    if (!entry.endsWith('.v8') || entry === currentName(prefix, entry.slice(0, entry.indexOf('.cjs.') + 4))) continue;
    try {
      unlinkSync(join(dir, entry));
    } catch {
      // already gone
    }
  }
}

function currentName(prefix: string, source: string): string | undefined {
  for (const file of [prefix + source, join(prefix, 'chunks', source)]) {
    try {
      const { size, mtimeMs } = statSync(file);
      return cacheFileName(file, size, mtimeMs);
    } catch {
      // not in this folder
    }
  }
  return undefined;
}
