/**
 * Writes a user's config file without ever leaving it half-written or
 * overwriting someone else's change: the new content goes to a temporary file
 * in the same folder, is flushed to disk, and is renamed over the old file,
 * which keeps its mode (and, as root, its owner). Right before the rename the
 * file is read again; if it changed since we read it (a client such as Claude
 * Code rewrote its state file meanwhile), nothing is written and the exit is 7.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, copyFile, lstat, open, readFile, realpath, rename, stat, unlink } from 'node:fs/promises';
import { ensureFolder, isPrivateMode } from '../../private-dir.js';
import { basename, dirname, join } from 'node:path';
import { CliError, ExitCode } from '../../errors.js';
import { fileReadReason, fileWriteReason } from '../../fs-reasons.js';

export interface FileSnapshot {
  /** The path as given (for messages). */
  path: string;
  /** The file actually written: a symlinked config (dotfiles managers) is followed, not replaced. */
  realPath: string;
  exists: boolean;
  bytes: Buffer;
  text: string;
  mtimeMs: number;
  size: number;
  /** Permission bits; undefined for a missing file. */
  mode: number | undefined;
  uid: number | undefined;
  gid: number | undefined;
}

export interface SafeWriteOptions {
  /** Copy the old file to <file>.bak first (default true). */
  backup?: boolean;
  /** Force this mode (0o600 for a file holding literal secrets); otherwise the old file's mode is kept. */
  mode?: number;
  /** Test seam: runs after the temporary file is written, right before the concurrent-change check. */
  beforeRename?: () => Promise<void> | void;
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
      size: info.size,
      mode: info.mode & 0o7777,
      uid: info.uid,
      gid: info.gid,
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw error instanceof CliError ? error : cannotAccess(path, error);
    }
    return { path, realPath, exists: false, bytes: Buffer.alloc(0), text: '', mtimeMs: 0, size: 0, mode: undefined, uid: undefined, gid: undefined };
  }
}

/** True when the file on disk is still exactly what the snapshot saw. */
export async function unchangedSince(snapshot: FileSnapshot): Promise<boolean> {
  const now = await readSnapshot(snapshot.path);
  if (now.exists !== snapshot.exists) return false;
  if (!now.exists) return true;
  return now.size === snapshot.size && now.mtimeMs === snapshot.mtimeMs && now.bytes.equals(snapshot.bytes);
}

export async function writeSafely(snapshot: FileSnapshot, content: string, options: SafeWriteOptions = {}): Promise<SafeWriteResult> {
  const target = snapshot.realPath;
  const folder = dirname(target);
  await ensureFolder(folder, { private: isPrivateMode(options.mode) }).catch((error: unknown) => {
    throw cannotWrite(snapshot.path, error);
  });
  // A new file gets the usual mode (0666 less the umask) unless a stricter one is asked for.
  const explicitMode = options.mode ?? snapshot.mode;
  let mode = explicitMode ?? 0o644;
  const temp = join(folder, `.${basename(target)}.svcctl-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  let tempWritten = false;
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
    await options.beforeRename?.();
    if (!(await unchangedSince(snapshot))) {
      throw new CliError(ExitCode.UnsafeConfig, `${snapshot.path} changed on disk while svcctl was working; nothing was written`, {
        hint: 'another program (perhaps the client itself) is writing this file: close it or wait, then run the command again',
      });
    }
    let backupPath: string | undefined;
    if (snapshot.exists && options.backup !== false) {
      backupPath = `${snapshot.path}.bak`;
      await copyFile(target, backupPath);
      // The backup holds the same secrets as the file: it gets the same (or a stricter) mode.
      await chmod(backupPath, (snapshot.mode ?? 0o600) & mode & 0o777);
    }
    await renameWithRetry(temp, target);
    tempWritten = false;
    await syncFolder(folder);
    return { backupPath };
  } catch (error) {
    if (tempWritten) await unlink(temp).catch(() => undefined);
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


function cannotWrite(path: string, error: unknown): CliError {
  return new CliError(ExitCode.UnsafeConfig, `cannot write ${path}: ${fileWriteReason(error)}; it was not changed`, { cause: error });
}

function cannotAccess(path: string, error: unknown): CliError {
  return new CliError(ExitCode.UnsafeConfig, `cannot read ${path}: ${fileReadReason(error)}`, { cause: error });
}
