// A link planted where svcctl writes would send its bytes into the file it names (docs/security.md).
// Windows has no O_NOFOLLOW: there the path is checked with lstat first.
import { closeSync, constants, fstatSync, lstatSync, openSync, type Stats } from 'node:fs';
import { promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { CliError, ExitCode, usageError } from '../core/errors.js';
import { ownerProblem } from './owner-mode.js';
import { notRegularReason } from './regular-file.js';
import { fileWriteReason } from './reasons.js';

export const TEMP_PREFIX = (target: string): string => `.${basename(target)}.svcctl-`;

export function tempPathFor(target: string): string {
  return join(dirname(target), `${TEMP_PREFIX(target)}${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

export type Refusal = string;

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

export function refusalFor(info: Stats): Refusal | undefined {
  if (info.isSymbolicLink()) return 'is a symbolic link, which svcctl does not write through';
  if (info.isDirectory()) return 'is a folder, not a file';
  if (info.isCharacterDevice() || info.isFIFO()) return undefined;
  if (!info.isFile()) return 'is not a regular file';
  return undefined;
}

// A hard link planted in a shared folder (/tmp) makes an append land in whatever file it names.
export function trustRefusalFor(info: Stats, uid: number | undefined = process.getuid?.()): Refusal | undefined {
  if (!info.isFile()) return undefined;
  const owner = ownerProblem(info.uid, uid);
  if (owner !== undefined) return owner;
  if (info.nlink > 1)
    return `has ${info.nlink} hard links: its other names may belong to someone else, so svcctl does not append to it`;
  return undefined;
}

export class RefusedPath extends Error {
  constructor(
    readonly path: string,
    readonly reason: Refusal,
    /** A file of someone else's, or with other names: exit 7 rather than a usage error. */
    readonly untrusted = false,
  ) {
    super(`${path} ${reason}`);
  }
}

// A file that is also read back must be a regular one: a FIFO would block the read, /dev/zero never end it.
export function readRefusalFor(info: Stats): Refusal | undefined {
  return info.isSymbolicLink() ? refusalFor(info) : notRegularReason(info);
}

/** `readable`: opened read-write without blocking, so that its lines are read from this same descriptor. */
export function openForAppend(path: string, mode = 0o600, readable = false): number {
  if (NOFOLLOW === 0) refuseLinkByLstat(path);
  const access = readable ? constants.O_RDWR | NONBLOCK : constants.O_WRONLY;
  let fd: number;
  try {
    fd = openSync(path, access | constants.O_APPEND | constants.O_CREAT | NOFOLLOW, mode);
  } catch (error) {
    // O_NOFOLLOW on a link: ELOOP (Linux, macOS), EMLINK (FreeBSD), EFTYPE (NetBSD).
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK' || code === 'EFTYPE')
      throw new RefusedPath(path, refusalFor(lstatSync(path)) ?? 'is a symbolic link');
    throw error;
  }
  const info = fstatSync(fd);
  const reason = readable ? readRefusalFor(info) : refusalFor(info);
  const untrusted = reason === undefined ? trustRefusalFor(info) : undefined;
  if (reason !== undefined || untrusted !== undefined) {
    closeSync(fd);
    throw new RefusedPath(path, (reason ?? untrusted)!, untrusted !== undefined);
  }
  return fd;
}

export function openAppendTarget(file: string, flag: string, shown = file, readable = false): number {
  try {
    return openForAppend(file, 0o600, readable);
  } catch (error) {
    if (error instanceof RefusedPath) throw refusedTarget(shown, flag, error.reason, error.untrusted);
    throw usageError(`cannot write ${flag} '${shown}': ${fileWriteReason(error)}`);
  }
}

export const refusedTarget = (file: string, flag: string, reason: Refusal, untrusted = false): CliError =>
  untrusted
    ? new CliError(ExitCode.UnsafeConfig, `${flag} '${file}' ${reason}; nothing was written to it`, {
        hint: 'name a new file (svcctl creates it 0600), or a file of yours with no other hard link',
      })
    : usageError(`${flag} '${file}' ${reason}`, 'name a new file, or a regular file of yours');

function refuseLinkByLstat(path: string): void {
  try {
    const info = lstatSync(path);
    if (info.isSymbolicLink()) throw new RefusedPath(path, 'is a symbolic link, which svcctl does not write through');
  } catch (error) {
    if (error instanceof RefusedPath) throw error;
  }
}

export async function replaceFile(path: string, content: string | Uint8Array, mode = 0o600): Promise<void> {
  const replacement = await prepareReplacement(path, content, mode);
  await replacement.commit();
}

export interface Replacement {
  /** `rename`: one that waits out a file held open (held-open.ts). */
  commit(rename?: (from: string, to: string) => Promise<void>): Promise<void>;
  discard(): Promise<void>;
}

/** replaceFile in two steps: the content is written and flushed now, and put in place by commit(). */
export async function prepareReplacement(
  path: string,
  content: string | Uint8Array,
  mode = 0o600,
): Promise<Replacement> {
  // A folder there would make only the final rename fail: say so before anything is written.
  if ((await fs.lstat(path).catch(() => undefined))?.isDirectory())
    throw Object.assign(new Error(`${path} is a folder`), { code: 'EISDIR' });
  const temp = tempPathFor(path);
  const discard = (): Promise<void> => fs.unlink(temp).catch(() => undefined);
  const handle = await fs.open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  try {
    try {
      await handle.writeFile(content);
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await discard();
    throw error;
  }
  return {
    commit: (rename = fs.rename) =>
      rename(temp, path).catch(async (error: unknown) => {
        await discard();
        throw error;
      }),
    discard,
  };
}
