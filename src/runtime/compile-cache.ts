/**
 * Keeps the compiled code of svcctl's own files (dist/) between runs, in $XDG_CACHE_HOME/svcctl/compile-cache
 * (else ~/.cache/svcctl/compile-cache). Compiling the ~300 kB that `event send` loads costs it ~25 ms of
 * start-up, a quarter of its own time (BENCHMARKS.md, "Start-up").
 * - Node 22.1+ has this built in: module.enableCompileCache(), given the same folder.
 * - Node 20 has no such switch, so svcctl does it for its own files only, with V8's code cache:
 *   each dist/ file is compiled with vm.Script and the cache this folder holds for it; at exit, the
 *   code of every file compiled without one (functions compiled while running included) is saved.
 * A cache is used only for the file it was made from: its name holds the file's name (with esbuild's
 * content hash), size and modification time, and V8 refuses one made by another V8 version or flags.
 * NODE_DISABLE_COMPILE_CACHE=1 (Node's own switch) turns it off. The folder is 0700 and its files 0600;
 * a cache that cannot be read or written costs only its speed: nothing fails because of it.
 * This module is its own entry point (dist/compile-cache.cjs), loaded before the program, and imports
 * nothing of svcctl.
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { basename, dirname, isAbsolute, join, sep } from 'node:path';
import { Script } from 'node:vm';

export interface CompileCacheSettings {
  env: NodeJS.ProcessEnv;
  homeDir: string;
  /** The folder of the files to cache (dist/). */
  distDir: string;
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

type CompileFunction = (this: Module, content: string, filename: string) => unknown;
interface ModuleInternals {
  prototype: { _compile: CompileFunction; require(id: string): unknown };
  wrap(code: string): string;
  _resolveFilename(request: string, parent: Module, isMain: boolean, options?: { paths?: string[] }): string;
  _cache: Record<string, Module>;
}

/** Turns the cache on for the rest of this process. */
export function enableCompileCache(settings: CompileCacheSettings): void {
  const dir = compileCacheDir(settings.env, settings.homeDir, process.versions.v8, process.arch);
  if (dir === undefined) return;
  const builtIn = (Module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (builtIn) {
    builtIn(dir);
    return;
  }
  cacheCompiledFiles(dir, settings.distDir + sep);
}

function cacheCompiledFiles(dir: string, prefix: string): void {
  const internals = Module as unknown as ModuleInternals;
  const compile = internals.prototype._compile;
  const unsaved: Array<{ name: string; script: Script }> = [];
  internals.prototype._compile = function compileWithCache(this: Module, content: string, filename: string) {
    if (!filename.startsWith(prefix)) return compile.call(this, content, filename);
    const { size, mtimeMs } = statSync(filename);
    const name = cacheFileName(filename, size, mtimeMs);
    const cachedData = readCache(join(dir, name));
    const script = new Script(internals.wrap(content), { filename, cachedData });
    if (cachedData === undefined || script.cachedDataRejected) unsaved.push({ name, script });
    const wrapper = script.runInThisContext() as (...args: unknown[]) => unknown;
    return wrapper.call(this.exports, this.exports, requireFor(this, internals), this, filename, dirname(filename));
  };
  process.once('exit', () => {
    if (unsaved.length > 0) saveCaches(dir, unsaved, prefix);
  });
}

/**
 * The `require` a CommonJS file is given: the call, resolve and cache (the bundle itself only calls it,
 * but a dependency added later may use the others, and Node's own `require` has them).
 */
function requireFor(module: Module, internals: ModuleInternals): NodeJS.Require {
  const require = ((id: string) => internals.prototype.require.call(module, id)) as NodeJS.Require;
  require.resolve = ((request: string, options?: { paths?: string[] }) =>
    internals._resolveFilename(request, module, false, options)) as NodeJS.RequireResolve;
  require.cache = internals._cache as NodeJS.Require['cache'];
  return require;
}

function readCache(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

function saveCaches(dir: string, unsaved: Array<{ name: string; script: Script }>, prefix: string): void {
  try {
    makePrivateFolder(dir);
    for (const { name, script } of unsaved) {
      // A whole file or none: another svcctl may be reading or writing the same cache.
      const partial = join(dir, `.${name}.${process.pid}`);
      // Exclusive create: never written through a link left at that name (a stale one is removed first).
      rmSync(partial, { force: true });
      writeFileSync(partial, script.createCachedData(), { mode: 0o600, flag: 'wx' });
      renameSync(partial, join(dir, name));
    }
    removeStale(dir, prefix);
  } catch {
    // No cache this time (read-only home, full disk): the program works the same.
  }
}

/**
 * Creates dir and its missing parents 0700, whatever the umask: nobody else may change code svcctl runs.
 * (The synchronous twin of private-dir.ts ensureFolder: this module imports nothing of svcctl, and runs at exit.)
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
