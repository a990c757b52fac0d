// Temp file, flush, rename; a stat right before the rename catches a change by a program that takes no lock (exit 7).
// Left open: a write in the microseconds between that check and the rename is lost (docs/security.md).
import { constants } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import { prepareReplacement, tempPathFor, type Replacement } from './no-follow.js';
import { ensureFolder, isPrivateMode } from './private-dir.js';
import { dirname } from 'node:path';
import { CliError, ExitCode } from '../core/errors.js';
import { acquireFileLock, LockBusyError, type FileLock, type LockOptions } from './file-lock.js';
import { removeLeftoverTemps } from './leftover-temps.js';
import { fileWriteReason } from './reasons.js';
import { HeldOpenError, heldOpenFailure, renameWhileHeld, type HeldOpenOptions } from './held-open.js';
import { readSnapshot, unchangedSince, type FileSnapshot } from './file-snapshot.js';

// Most callers read and write through this module alone.
export { readSnapshot, unchangedSince, type FileSnapshot };

export interface SafeWriteOptions {
  backup?: boolean | ((snapshot: FileSnapshot) => boolean);
  /** Force this mode (0o600 for a file holding literal secrets); otherwise the old file's mode is kept. */
  mode?: number;
  privateFolder?: boolean;
  /** Test seam: runs after the temporary file is written, right before the concurrent-change check. */
  beforeRename?: () => Promise<void> | void;
  /** Kept across the tries of one update: the backup is made once, by the first try that gets past the check. */
  keptBackup?: KeptBackup;
  /** The program likely to hold the file open (named in the error), and the seams of the wait for it. */
  heldOpen?: HeldOpenOptions;
}

interface KeptBackup {
  committed?: boolean;
}

export interface SafeWriteResult {
  backupPath?: string;
}

export async function writeSafely(
  snapshot: FileSnapshot,
  content: string,
  options: SafeWriteOptions = {},
): Promise<SafeWriteResult> {
  const target = snapshot.realPath;
  const folder = dirname(target);
  await ensureFolder(folder, { private: options.privateFolder === true || isPrivateMode(options.mode) }).catch(
    (error: unknown) => {
      throw cannotWrite(snapshot.path, error);
    },
  );
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
    const rename = (from: string, to: string): Promise<void> => renameWhileHeld(from, to, options.heldOpen);
    await options.beforeRename?.();
    if (!(await unchangedSince(snapshot))) throw changedOnDisk(snapshot.path);
    // The backup is in place before the file is replaced: a .bak that cannot be written (held open, a folder there)
    // stops the write instead of leaving a replaced file without one. It is written like the file (a link at .bak
    // is replaced), its mode never looser than the file's; the check runs again after it, right before the rename.
    if (backupPath !== undefined && !options.keptBackup?.committed) {
      backup = await prepareReplacement(backupPath, snapshot.bytes, (snapshot.mode ?? 0o600) & mode & 0o777).catch(
        (error: unknown) => {
          throw cannotBackUp(backupPath, error);
        },
      );
      await backup.commit(rename).catch((error: unknown) => {
        const holder = options.heldOpen?.holder;
        throw error instanceof HeldOpenError
          ? heldOpenFailure(`cannot write the backup ${backupPath}`, 'nothing was written', error, holder)
          : cannotBackUp(backupPath, error);
      });
      backup = undefined;
      if (options.keptBackup) options.keptBackup.committed = true;
      if (!(await unchangedSince(snapshot))) throw changedOnDisk(snapshot.path);
    }
    await rename(temp, target).catch((error: unknown) => {
      // The .bak went first: it now holds the file as it still is, and the older copy it held is gone.
      const unchanged =
        backupPath === undefined ? 'it was not changed' : `it was not changed, and ${backupPath} now holds it as it is`;
      throw error instanceof HeldOpenError
        ? heldOpenFailure(`cannot replace ${snapshot.path}`, unchanged, error, options.heldOpen?.holder)
        : error;
    });
    tempWritten = false;
    await syncFolder(folder);
    return { backupPath };
  } catch (error) {
    if (tempWritten) await unlink(temp).catch(() => undefined);
    await backup?.discard();
    throw error instanceof CliError ? error : cannotWrite(snapshot.path, error);
  }
}

async function keepOwner(handle: import('node:fs/promises').FileHandle, snapshot: FileSnapshot): Promise<void> {
  // Only root can give a file away; for everyone else the new file is already theirs.
  if (process.getuid?.() !== 0 || snapshot.uid === undefined || snapshot.gid === undefined) return;
  await handle.chown(snapshot.uid, snapshot.gid).catch(() => undefined);
}

async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    await handle.sync().finally(() => handle.close());
  } catch {
    // Windows cannot open a folder for syncing; the rename is still atomic.
  }
}

const changedErrors = new WeakSet<object>();

export function changedOnDisk(path: string): CliError {
  const error = new CliError(
    ExitCode.UnsafeConfig,
    `${path} changed on disk while svcctl was working; nothing was written`,
    {
      hint: 'another program (perhaps the client itself) is writing this file: close it or wait, then run the command again',
    },
  );
  changedErrors.add(error);
  return error;
}

export const isChangedOnDisk = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && changedErrors.has(error);

export type Edit = (snapshot: FileSnapshot, attempt: number) => string | undefined | Promise<string | undefined>;

export interface UpdateOptions extends SafeWriteOptions {
  /** The snapshot the first edit is based on (already read and shown to the user); later attempts re-read. */
  first?: FileSnapshot;
  attempts?: number;
  lock?: LockOptions;
}

export interface UpdateResult extends SafeWriteResult {
  written: boolean;
}

/** A file changed before the rename gets the edit again, so both changes survive; exit 7 if it keeps changing. */
export async function updateSafely(path: string, edit: Edit, options: UpdateOptions = {}): Promise<UpdateResult> {
  const realPath = options.first?.realPath ?? (await readSnapshot(path)).realPath;
  const lock = await lockForWriting(path, realPath, options);
  try {
    return await editUntilWritten(path, edit, { ...options, keptBackup: {} });
  } finally {
    await lock.release();
  }
}

async function editUntilWritten(path: string, edit: Edit, options: UpdateOptions): Promise<UpdateResult> {
  const attempts = options.attempts ?? 20;
  for (let attempt = 0; attempt < attempts; attempt++) {
    // A random pause growing with each try: a fixed rhythm would meet the writes of a program that rewrites in a loop.
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

export async function lockForWriting(
  path: string,
  realPath: string,
  options: Pick<UpdateOptions, 'privateFolder' | 'mode' | 'lock'>,
): Promise<FileLock> {
  await ensureFolder(dirname(realPath), {
    private: options.privateFolder === true || isPrivateMode(options.mode),
  }).catch((error: unknown) => {
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
  return new CliError(ExitCode.UnsafeConfig, `cannot write ${path}: ${fileWriteReason(error)}; it was not changed`, {
    cause: error,
  });
}

function cannotBackUp(backupPath: string, error: unknown): CliError {
  return new CliError(
    ExitCode.UnsafeConfig,
    `cannot write the backup ${backupPath}: ${fileWriteReason(error)}; nothing was written`,
    {
      hint: 'move that path out of the way, or run the command again with --no-backup',
      cause: error,
    },
  );
}
