// What a file held when svcctl read it, and whether it is still that file: the base of every safe write.
import { lstatSync, type Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { CliError, ExitCode } from '../core/errors.js';
import { fileReadReason } from './reasons.js';
import { notRegularReason, readRegularFile, UnreadableFileError } from './regular-file.js';

export interface FileSnapshot {
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
  mode: number | undefined;
  uid: number | undefined;
  gid: number | undefined;
}

export async function readSnapshot(path: string): Promise<FileSnapshot> {
  let realPath = path;
  let info: Stats;
  // One lstat settles most places: a missing file (most of the ~90 places `mcp list` looks at) or a regular one.
  // Synchronous: a few microseconds, where a thread-pool round trip costs ten times that in CPU.
  try {
    info = lstatSync(path);
    if (info.isSymbolicLink()) {
      realPath = await realpath(path);
      info = await stat(realPath);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return missing(path, realPath);
    throw cannotAccess(path, error);
  }
  const notRegular = notRegularReason(info);
  if (notRegular !== undefined) throw new CliError(ExitCode.UnsafeConfig, `${path} ${notRegular}`);
  let bytes: Buffer;
  try {
    ({ bytes, info } = await readRegularFile(realPath));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return missing(path, realPath);
    throw cannotAccess(path, error);
  }
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
}

const missing = (path: string, realPath: string): FileSnapshot => ({
  path,
  realPath,
  exists: false,
  bytes: Buffer.alloc(0),
  text: '',
  mtimeMs: 0,
  ctimeMs: 0,
  ino: 0,
  size: 0,
  mode: undefined,
  uid: undefined,
  gid: undefined,
});

// One stat (it runs right before the rename): a replacing program gives a new inode, one writing in place new times.
export async function unchangedSince(snapshot: FileSnapshot): Promise<boolean> {
  if (snapshot.path !== snapshot.realPath) {
    const now = await readSnapshot(snapshot.path);
    return (
      now.exists === snapshot.exists &&
      now.realPath === snapshot.realPath &&
      sameFile(now, snapshot) &&
      now.bytes.equals(snapshot.bytes)
    );
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

function cannotAccess(path: string, error: unknown): CliError {
  const hint =
    error instanceof UnreadableFileError
      ? 'svcctl reads a config only as a regular file of up to 16 MiB: move this one away, or fix it by hand'
      : undefined;
  return new CliError(ExitCode.UnsafeConfig, `cannot read ${path}: ${fileReadReason(error)}`, { cause: error, hint });
}
