/**
 * Writes a user's config file without ever leaving it half-written or
 * overwriting someone else's change: the new content goes to a temporary file
 * in the same folder, is flushed to disk, and is renamed over the old file,
 * which keeps its mode (and, as root, its owner). Right before the rename the
 * file is looked at again (one stat); if it changed since we read it (a client
 * such as Claude Code rewrote its state file meanwhile), writeSafely writes
 * nothing (exit 7). The old file's copy (<file>.bak) is put in place after the
 * rename, so only that check stands between the read-again and the rename.
 * updateSafely adds the rest: svcctl runs take turns on a lock per file
 * (src/fs/file-lock.ts), and a change by a program that takes no lock is
 * handled by applying our edit again to the new content (a few times).
 * What remains: a write by such a program between the last check and the
 * rename (microseconds) is replaced by ours.
 */
import { constants } from 'node:fs';
import { lstat, open, readFile, realpath, rename, stat, unlink } from 'node:fs/promises';
import { prepareReplacement, tempPathFor, type Replacement } from './no-follow.js';
import { ensureFolder, isPrivateMode } from './private-dir.js';
import { dirname } from 'node:path';
import { CliError, ExitCode } from '../core/errors.js';
import { acquireFileLock, LockBusyError, type FileLock, type LockOptions } from './file-lock.js';
import { removeLeftoverTemps } from './leftover-temps.js';
import { fileReadReason, fileWriteReason } from './reasons.js';

export interface FileSnapshot {
  /** The path as given (for messages). */
  path: string;
  /** The file actually written: a symlinked config (dotfiles managers) is followed, not replaced. */
  realPath: string;
  exists: boolean;
  bytes: Buffer;
  text: string;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  size: number;
  /** Permission bits; undefined for a missing file. */
  mode: number | undefined;
  uid: number | undefined;
  gid: number | undefined;
}

export interface SafeWriteOptions {
  /** Copy the old file to <file>.bak first (default true); a function decides per file as read. */
  backup?: boolean | ((snapshot: FileSnapshot) => boolean);
  /** Force this mode (0o600 for a file holding literal secrets); otherwise the old file's mode is kept. */
  mode?: number;
  /** Create missing folders 0700 whatever the umask (else as the mode says: private for a 0600 file). */
  privateFolder?: boolean;
  /** Test seam: runs after the temporary file is written, right before the concurrent-change check. */
  beforeRename?: () => Promise<void> | void;
  /** updateSafely's: the backup written by an earlier try, used again by the next (the caller discards it). */
  keptBackup?: { replacement?: Replacement };
}

export interface SafeWriteResult {
  backupPath?: string;
}

export async function readSnapshot(path: string): Promise<FileSnapshot> {
  let realPath = path;
  try {
    if ((await lstat(path)).isSymbolicLink()) realPath = await realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw cannotAccess(path, error);
  }
  try {
    const info = await stat(realPath);
    if (!info.isFile()) throw new CliError(ExitCode.UnsafeConfig, `${path} is not a regular file`);
    const bytes = await readFile(realPath);
    return {
      path,
      realPath,
      exists: true,
      bytes,
      text: bytes.toString('utf8'),
      mtimeMs: info.mtimeMs,
      ctimeMs: info.ctimeMs,
      ino: info.ino,
      size: info.size,
      mode: info.mode & 0o7777,
      uid: info.uid,
      gid: info.gid,
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw error instanceof CliError ? error : cannotAccess(path, error);
    }
    return { path, realPath, exists: false, bytes: Buffer.alloc(0), text: '', mtimeMs: 0, ctimeMs: 0, ino: 0, size: 0, mode: undefined, uid: undefined, gid: undefined };
  }
}

/**
 * True when the file on disk is still exactly what the snapshot saw. One stat: a program that replaces
 * the file (temp file and rename) gives it another inode, one that writes in place changes its times
 * and size. It runs right before the rename, so it is kept short; a symlinked config (whose link may
 * have been pointed elsewhere) is read again whole.
 */
export async function unchangedSince(snapshot: FileSnapshot): Promise<boolean> {
  if (snapshot.path !== snapshot.realPath) {
    const now = await readSnapshot(snapshot.path);
    return now.exists === snapshot.exists && now.realPath === snapshot.realPath && sameFile(now, snapshot) && now.bytes.equals(snapshot.bytes);
  }
  try {
    const now = await stat(snapshot.realPath);
    return snapshot.exists && sameFile(now, snapshot);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return !snapshot.exists;
    throw cannotAccess(snapshot.path, error);
  }
}

const sameFile = (now: Pick<FileSnapshot, 'ino' | 'size' | 'mtimeMs' | 'ctimeMs'>, then: FileSnapshot): boolean =>
  now.ino === then.ino && now.size === then.size && now.mtimeMs === then.mtimeMs && now.ctimeMs === then.ctimeMs;

export async function writeSafely(snapshot: FileSnapshot, content: string, options: SafeWriteOptions = {}): Promise<SafeWriteResult> {
  const target = snapshot.realPath;
  const folder = dirname(target);
  await ensureFolder(folder, { private: options.privateFolder === true || isPrivateMode(options.mode) }).catch((error: unknown) => {
    throw cannotWrite(snapshot.path, error);
  });
  // A new file gets the usual mode (0666 less the umask) unless a stricter one is asked for.
  const explicitMode = options.mode ?? snapshot.mode;
  let mode = explicitMode ?? 0o644;
  const temp = tempPathFor(target);
  let tempWritten = false;
  let backup: Replacement | undefined;
  try {
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;
    const handle = await open(temp, flags, explicitMode === undefined ? 0o666 : 0o600);
    tempWritten = true;
    try {
      await handle.writeFile(content, 'utf8');
      if (explicitMode === undefined) mode = (await handle.stat()).mode & 0o7777;
      else await handle.chmod(explicitMode);
      await keepOwner(handle, snapshot);
      await handle.sync();
    } finally {
      await handle.close();
    }
    const wanted = typeof options.backup === 'function' ? options.backup(snapshot) : options.backup !== false;
    const backupPath = snapshot.exists && wanted ? `${snapshot.path}.bak` : undefined;
    // The backup holds the same secrets as the file: it gets the same (or a stricter) mode. It is
    // written like the file (exclusive temp file, rename), so a link planted at <file>.bak is
    // replaced, never written through. Its temporary file is written before the check and renamed
    // after the file's own rename, so that nothing but the check stands before that rename, and an
    // older .bak stays when nothing is written. Under updateSafely one is written per update (the
    // file as first found), not one per try.
    if (backupPath !== undefined) {
      backup =
        options.keptBackup?.replacement ??
        (await prepareReplacement(backupPath, snapshot.bytes, (snapshot.mode ?? 0o600) & mode & 0o777).catch((error: unknown) => {
          throw cannotBackUp(backupPath, error);
        }));
      if (options.keptBackup) options.keptBackup.replacement = backup;
    }
    await options.beforeRename?.();
    if (!(await unchangedSince(snapshot))) throw changedOnDisk(snapshot.path);
    await renameWithRetry(temp, target);
    tempWritten = false;
    const written = backup;
    backup = undefined;
    if (options.keptBackup) options.keptBackup.replacement = undefined;
    await written?.commit().catch((error: unknown) => {
      throw new CliError(ExitCode.UnsafeConfig, `${snapshot.path} was written, but its backup ${backupPath} could not be: ${fileWriteReason(error)}`, { cause: error });
    });
    await syncFolder(folder);
    return { backupPath };
  } catch (error) {
    if (tempWritten) await unlink(temp).catch(() => undefined);
    // A kept backup is the caller's, for its next try.
    if (!options.keptBackup) await backup?.discard();
    throw error instanceof CliError ? error : cannotWrite(snapshot.path, error);
  }
}

async function keepOwner(handle: import('node:fs/promises').FileHandle, snapshot: FileSnapshot): Promise<void> {
  // Only root can give a file away; for everyone else the new file is already theirs.
  if (process.getuid?.() !== 0 || snapshot.uid === undefined || snapshot.gid === undefined) return;
  await handle.chown(snapshot.uid, snapshot.gid).catch(() => undefined);
}

/** Windows may refuse a rename for a moment while another process has the file open. */
async function renameWithRetry(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await rename(from, to);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (attempt >= 4 || (code !== 'EPERM' && code !== 'EBUSY' && code !== 'EACCES')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * (attempt + 1)));
    }
  }
}

/** Makes the rename itself durable; not possible (nor needed) on every platform. */
async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    await handle.sync().finally(() => handle.close());
  } catch {
    // Windows cannot open a folder for syncing; the rename is still atomic.
  }
}

const changedErrors = new WeakSet<object>();

/** The file changed since it was read: exit 7, nothing written. */
export function changedOnDisk(path: string): CliError {
  const error = new CliError(ExitCode.UnsafeConfig, `${path} changed on disk while svcctl was working; nothing was written`, {
    hint: 'another program (perhaps the client itself) is writing this file: close it or wait, then run the command again',
  });
  changedErrors.add(error);
  return error;
}

export const isChangedOnDisk = (error: unknown): boolean => typeof error === 'object' && error !== null && changedErrors.has(error);

/** Returns the new content for the file as read now, or undefined to write nothing. */
export type Edit = (snapshot: FileSnapshot, attempt: number) => string | undefined | Promise<string | undefined>;

export interface UpdateOptions extends SafeWriteOptions {
  /** The snapshot the first edit is based on (already read and shown to the user); later attempts re-read. */
  first?: FileSnapshot;
  /** How many times the edit is applied to a file that keeps changing (default 20). */
  attempts?: number;
  lock?: LockOptions;
}

export interface UpdateResult extends SafeWriteResult {
  written: boolean;
}

/**
 * Read-edit-write under the file's lock. When the file changed between the
 * read and the rename, the edit is applied again to the new content, so the
 * other program's change and ours both survive; when it keeps changing, exit 7
 * with nothing written. An edit may throw to stop (e.g. a changedOnDisk error).
 */
export async function updateSafely(path: string, edit: Edit, options: UpdateOptions = {}): Promise<UpdateResult> {
  const realPath = options.first?.realPath ?? (await readSnapshot(path)).realPath;
  const lock = await lockForWriting(path, realPath, options);
  const keptBackup: { replacement?: Replacement } = {};
  try {
    return await editUntilWritten(path, edit, { ...options, keptBackup });
  } finally {
    await keptBackup.replacement?.discard();
    await lock.release();
  }
}

/** The tries of updateSafely, under its lock. */
async function editUntilWritten(path: string, edit: Edit, options: UpdateOptions): Promise<UpdateResult> {
  const attempts = options.attempts ?? 20;
  for (let attempt = 0; attempt < attempts; attempt++) {
    // A short random pause before reading again, growing with each try, so that we fall out of step with a
    // program that rewrites the file in a tight loop (a fixed rhythm would meet its writes every time).
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * 3 * attempt));
    const snapshot = attempt === 0 && options.first ? options.first : await readSnapshot(path);
    const content = await edit(snapshot, attempt);
    if (content === undefined) return { written: false };
    try {
      return { ...(await writeSafely(snapshot, content, options)), written: true };
    } catch (error) {
      if (!isChangedOnDisk(error)) throw error;
    }
  }
  throw new CliError(ExitCode.UnsafeConfig, `${path} kept changing while svcctl was writing it; nothing was written`, {
    hint: 'another program (perhaps the client itself) keeps writing this file: close it or wait, then run the command again',
  });
}

/**
 * Takes the lock of the file at `realPath` (its folder is created first) and
 * removes temporary files left by killed runs. Errors are exit 7 naming `path`.
 */
export async function lockForWriting(path: string, realPath: string, options: Pick<UpdateOptions, 'privateFolder' | 'mode' | 'lock'>): Promise<FileLock> {
  await ensureFolder(dirname(realPath), { private: options.privateFolder === true || isPrivateMode(options.mode) }).catch((error: unknown) => {
    throw cannotWrite(path, error);
  });
  const lock = await acquireFileLock(realPath, options.lock).catch((error: unknown) => {
    throw error instanceof LockBusyError ? lockBusy(path, error) : cannotWrite(path, error);
  });
  await removeLeftoverTemps(realPath);
  return lock;
}

function lockBusy(path: string, error: LockBusyError): CliError {
  const who = error.holder ? ` (process ${error.holder.pid} on ${error.holder.host})` : '';
  return new CliError(ExitCode.UnsafeConfig, `another svcctl${who} is still writing ${path}; nothing was written`, {
    hint: `wait for it to finish and run the command again; if no svcctl is running, delete ${error.lockPath}`,
  });
}

function cannotWrite(path: string, error: unknown): CliError {
  return new CliError(ExitCode.UnsafeConfig, `cannot write ${path}: ${fileWriteReason(error)}; it was not changed`, { cause: error });
}

function cannotBackUp(backupPath: string, error: unknown): CliError {
  return new CliError(ExitCode.UnsafeConfig, `cannot write the backup ${backupPath}: ${fileWriteReason(error)}; nothing was written`, {
    hint: 'move that path out of the way, or run the command again with --no-backup',
    cause: error,
  });
}

function cannotAccess(path: string, error: unknown): CliError {
  return new CliError(ExitCode.UnsafeConfig, `cannot read ${path}: ${fileReadReason(error)}`, { cause: error });
}
