/**
 * Opening files svcctl writes without following a symbolic link planted at
 * their path. A cloned repository or another user of a shared folder can put
 * a link where svcctl is about to write (`mcp.json.bak`, `failed.ndjson`);
 * following it would write svcctl's bytes into whatever file the link names.
 *
 * - appended files (`--failed-out`, `--events-file`, `--log-file`) are opened
 *   with O_NOFOLLOW and must then be a regular file of this user (or a
 *   character device such as /dev/null);
 * - whole files are written to a new exclusive temp file (O_EXCL never
 *   follows a link) and renamed over the name, which replaces a link instead
 *   of writing through it.
 * Windows has no O_NOFOLLOW; there the path is checked with lstat first.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, type Stats } from 'node:fs';
import { promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { usageError } from '../core/errors.js';
import { fileWriteReason } from './reasons.js';

/** Temporary files are named `.<name>.svcctl-<pid>-<random>.tmp` next to their target (leftover-temps.ts cleans them up). */
export const TEMP_PREFIX = (target: string): string => `.${basename(target)}.svcctl-`;

export function tempPathFor(target: string): string {
  return join(dirname(target), `${TEMP_PREFIX(target)}${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

/** Why svcctl refuses to write a path, in words for a message; undefined when it is fine. */
export type Refusal = string;

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** A file svcctl may append to: not a link, a regular file of this user (or a device such as /dev/null). */
export function refusalFor(info: Stats): Refusal | undefined {
  if (info.isSymbolicLink()) return 'is a symbolic link, which svcctl does not write through';
  if (info.isDirectory()) return 'is a folder, not a file';
  if (info.isCharacterDevice() || info.isFIFO()) return undefined;
  if (!info.isFile()) return 'is not a regular file';
  const uid = process.getuid?.();
  if (uid !== undefined && uid !== 0 && info.uid !== uid) return `belongs to another user (uid ${info.uid})`;
  return undefined;
}

export class RefusedPath extends Error {
  constructor(
    readonly path: string,
    readonly reason: Refusal,
  ) {
    super(`${path} ${reason}`);
  }
}

/**
 * Opens `path` for appending (created with `mode` when missing) without
 * following a link at it. Throws RefusedPath for a link or a file that is not
 * the user's, and the system error otherwise.
 */
export function openForAppend(path: string, mode = 0o600): number {
  if (NOFOLLOW === 0) refuseLinkByLstat(path);
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NOFOLLOW, mode);
  } catch (error) {
    // O_NOFOLLOW on a link: ELOOP (Linux, macOS), EMLINK (FreeBSD), EFTYPE (NetBSD).
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK' || code === 'EFTYPE') throw new RefusedPath(path, refusalFor(lstatSync(path)) ?? 'is a symbolic link');
    throw error;
  }
  const reason = refusalFor(fstatSync(fd));
  if (reason !== undefined) {
    closeSync(fd);
    throw new RefusedPath(path, reason);
  }
  return fd;
}

/**
 * openForAppend for a file named by a flag (`--failed-out`, `--events-file`,
 * `--log-file`): problems are usage errors naming the flag.
 */
/** `shown` is the path as the user gave it, for messages. */
export function openAppendTarget(file: string, flag: string, shown = file): number {
  try {
    return openForAppend(file, 0o600);
  } catch (error) {
    if (error instanceof RefusedPath) throw refusedTarget(shown, flag, error.reason);
    throw usageError(`cannot write ${flag} '${shown}': ${fileWriteReason(error)}`);
  }
}

export const refusedTarget = (file: string, flag: string, reason: Refusal) =>
  usageError(`${flag} '${file}' ${reason}`, 'name a new file, or a regular file of yours');

function refuseLinkByLstat(path: string): void {
  try {
    const info = lstatSync(path);
    if (info.isSymbolicLink()) throw new RefusedPath(path, 'is a symbolic link, which svcctl does not write through');
  } catch (error) {
    if (error instanceof RefusedPath) throw error;
  }
}

/**
 * Writes `content` as the whole file `path`: a new exclusive temp file in the
 * same folder (mode `mode`), flushed, then renamed over `path`. A link or any
 * other file at `path` is replaced, never written through; a folder there
 * makes the rename fail.
 */
export async function replaceFile(path: string, content: string | Uint8Array, mode = 0o600): Promise<void> {
  const replacement = await prepareReplacement(path, content, mode);
  await replacement.commit();
}

export interface Replacement {
  /** Renames the written temporary file over `path`. */
  commit(): Promise<void>;
  /** Removes the temporary file; `path` is left as it was. */
  discard(): Promise<void>;
}

/** replaceFile in two steps: the content is written and flushed now, and put in place by commit(). */
export async function prepareReplacement(path: string, content: string | Uint8Array, mode = 0o600): Promise<Replacement> {
  // A folder there would make only the final rename fail: say so before anything is written.
  if ((await fs.lstat(path).catch(() => undefined))?.isDirectory()) throw Object.assign(new Error(`${path} is a folder`), { code: 'EISDIR' });
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
    commit: () =>
      fs.rename(temp, path).catch(async (error: unknown) => {
        await discard();
        throw error;
      }),
    discard,
  };
}
