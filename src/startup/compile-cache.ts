// V8's code cache for dist/, kept between runs: ~20 ms of start-up (BENCHMARKS.md, also why not enableCompileCache()).
// Its own entry point (dist/compile-cache.cjs), importing nothing of svcctl; a cache that fails costs only speed.
import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { Script } from 'node:vm';

export interface CompileCacheSettings {
  env: NodeJS.ProcessEnv;
  homeDir: string;
  distDir: string;
  require: (id: string) => unknown;
}

export function compileCacheDir(
  env: NodeJS.ProcessEnv,
  homeDir: string,
  v8Version: string,
  arch: string,
): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  // A relative HOME or XDG_CACHE_HOME (HOME='' included) names a folder of the current one: a cloned project could
  // carry a cache there, whose files are the user's who cloned it, and V8 would run it. No cache then.
  const xdg = env.XDG_CACHE_HOME;
  if (xdg ? !isAbsolute(xdg) : !isAbsolute(homeDir)) return undefined;
  // An absolute one into the project (`$PWD/.cache` from an .envrc) is the project's too: a clone made under umask
  // 077 has the user's private modes, which pass every other check.
  if (xdg && insideProject(xdg, homeDir, process.cwd())) return undefined;
  const base = xdg || join(homeDir, '.cache');
  return join(base, 'svcctl', 'compile-cache', `v8-${v8Version}-${arch}`);
}

const within = (folder: string, path: string): boolean => {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** The project is the nearest folder at or above cwd holding `.git`, else cwd; none when it holds the home folder. */
function insideProject(folder: string, homeDir: string, cwd: string): boolean {
  let root = cwd;
  while (!exists(join(root, '.git')) && dirname(root) !== root) root = dirname(root);
  const project = exists(join(root, '.git')) ? root : cwd;
  return !within(project, realOrSelf(homeDir)) && within(project, realOrSelf(folder));
}

const exists = (path: string): boolean => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

const realOrSelf = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

export function cacheFileName(file: string, size: number, mtimeMs: number): string {
  return `${basename(file)}.${size}.${Math.trunc(mtimeMs)}.v8`;
}

export function loadWithCompileCache(entry: string, settings: CompileCacheSettings): unknown {
  const dir = compileCacheDir(settings.env, settings.homeDir, process.versions.v8, process.arch);
  if (dir === undefined) return settings.require(entry);
  const loader = new CachedLoader(dir, settings.distDir, settings.require, process.getuid?.());
  process.once('exit', () => loader.save());
  return loader.load(entry);
}

const wrap = (source: string): string => `(function (exports, require, module, __filename, __dirname) {\n${source}\n})`;

// A cache file: this magic, the number of runs that have saved it, then V8's data.
const MAGIC = Buffer.from('svc1');

/** Runs save again until this many have, each adding what its command calls (architecture.md "Compile cache"). */
export const SAVING_RUNS = 3;

export class CachedLoader {
  private readonly modules = new Map<string, { exports: unknown }>();
  /** Each file run, with the number of runs that had saved its cache (0: none, or one V8 refused). */
  private readonly scripts: Array<{ name: string; script: Script; saves: number }> = [];
  private readonly prefix: string;
  private folderTrusted: boolean | undefined;

  /** uid: whose cache files are trusted; undefined where there are no uids (Windows), where no check is made. */
  constructor(
    private readonly dir: string,
    distDir: string,
    private readonly outside: (id: string) => unknown,
    private readonly uid?: number,
  ) {
    this.prefix = distDir + sep;
  }

  // V8 matches cached data to its source by length only, and runs what the cache holds: a cache file someone else
  // could have written would run their code as this user. Such a cache is neither read nor written.
  private trusted(): boolean {
    this.folderTrusted ??= this.uid === undefined || ownFoldersUpTo(this.dir, 'svcctl', this.uid);
    return this.folderTrusted;
  }

  load(filename: string): unknown {
    const known = this.modules.get(filename);
    if (known) return known.exports;
    const module = { exports: {} as unknown };
    this.modules.set(filename, module);
    const source = readFileSync(filename, 'utf8');
    const { size, mtimeMs } = statSync(filename);
    const name = cacheFileName(filename, size, mtimeMs);
    const cached = this.trusted() ? readCache(join(this.dir, name), this.uid) : undefined;
    const script = new Script(wrap(source), { filename, lineOffset: -1, cachedData: cached?.data });
    this.scripts.push({ name, script, saves: cached && !script.cachedDataRejected ? cached.saves : 0 });
    const folder = dirname(filename);
    // esbuild's output names its sibling chunks by relative paths; everything else is Node's to find.
    const require = (id: string): unknown =>
      id.startsWith('./') || id.startsWith('../') ? this.load(join(folder, id)) : this.outside(id);
    const wrapper = script.runInThisContext() as (...args: unknown[]) => unknown;
    wrapper.call(module.exports, module.exports, require, module, filename, folder);
    return module.exports;
  }

  /** How many files save() would write: every file this run ran when one of them has a cache saved by fewer than
   * SAVING_RUNS runs (or none), so that each cache holds what this run called too; else none. */
  unsavedCount(): number {
    return this.scripts.some(({ saves }) => saves < SAVING_RUNS) ? this.scripts.length : 0;
  }

  save(): void {
    if (this.unsavedCount() === 0) return;
    try {
      if (!makePrivateFolder(this.dir, 'svcctl')) return;
      this.folderTrusted = undefined;
      if (!this.trusted()) return;
      for (const { name, script, saves } of this.scripts) {
        // A whole file or none: another svcctl may be reading or writing the same cache.
        const partial = join(this.dir, `.${name}.${process.pid}`);
        // Exclusive create: never written through a link left at that name (a stale one is removed first).
        rmSync(partial, { force: true });
        const header = Buffer.concat([MAGIC, Buffer.of(Math.min(SAVING_RUNS, saves + 1))]);
        writeFileSync(partial, Buffer.concat([header, script.createCachedData()]), { mode: 0o600, flag: 'wx' });
        renameSync(partial, join(this.dir, name));
      }
      removeStale(this.dir, this.prefix);
    } catch {
      // No cache this time (read-only home, full disk): the program works the same.
    }
  }
}

/** Any permission for others: a cache a cloned project carries is not svcctl's (architecture.md "Compile cache"). */
const PUBLIC = 0o077;

/** Only a private regular file of this user's, with no other name; never through a link. */
function readCache(path: string, uid: number | undefined): { data: Uint8Array; saves: number } | undefined {
  const file = readCacheFile(path, uid);
  if (file === undefined || file.length <= MAGIC.length + 1 || MAGIC.some((byte, index) => file[index] !== byte))
    return undefined;
  return { saves: file[MAGIC.length]!, data: file.subarray(MAGIC.length + 1) };
}

function readCacheFile(path: string, uid: number | undefined): Uint8Array | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const stat = fstatSync(fd);
    if (!stat.isFile() || (uid !== undefined && (stat.uid !== uid || stat.nlink !== 1 || stat.mode & PUBLIC)))
      return undefined;
    // A Uint8Array: Buffer.allocUnsafe costs ~0.05 ms on its first call, and this is every run's first read.
    const data = new Uint8Array(stat.size);
    return readSync(fd, data, 0, stat.size, 0) === stat.size ? data : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The cache folder and each above it up to the one named `top`: real private folders of this user's. */
function ownFoldersUpTo(dir: string, top: string, uid: number): boolean {
  for (let folder = dir; ; folder = dirname(folder)) {
    try {
      const stat = lstatSync(folder);
      if (!stat.isDirectory() || stat.uid !== uid || stat.mode & PUBLIC) return false;
    } catch {
      return false;
    }
    if (basename(folder) === top || dirname(folder) === folder) return true;
  }
}

// 0700 whatever the umask: nobody else may change code svcctl runs. Sync: this module runs at exit. From `top` down,
// one folder at a time, each checked before going into it: `mkdir -p` would follow a link another user planted at
// any of them. False: one is not a real folder.
function makePrivateFolder(dir: string, top: string): boolean {
  const folders: string[] = [];
  for (let folder = dir; ; folder = dirname(folder)) {
    folders.unshift(folder);
    if (basename(folder) === top || dirname(folder) === folder) break;
  }
  mkdirSync(dirname(folders[0]!), { recursive: true, mode: 0o700 });
  for (const folder of folders) {
    try {
      mkdirSync(folder, { mode: 0o700 });
      chmodSync(folder, 0o700);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (!lstatSync(folder).isDirectory()) return false;
  }
  return true;
}

function removeStale(dir: string, prefix: string): void {
  for (const entry of readdirSync(dir)) {
    if (!entry.endsWith('.v8') || entry === currentName(prefix, entry.slice(0, entry.indexOf('.cjs.') + 4))) continue;
    try {
      unlinkSync(join(dir, entry));
    } catch {}
  }
}

function currentName(prefix: string, source: string): string | undefined {
  for (const file of [prefix + source, join(prefix, 'chunks', source)]) {
    try {
      const { size, mtimeMs } = statSync(file);
      return cacheFileName(file, size, mtimeMs);
    } catch {}
  }
  return undefined;
}
