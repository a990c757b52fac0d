/**
 * The durable spool: one file per event that could not be delivered for
 * service reasons, named by its id, holding the exact body bytes (never a
 * secret: the signature is computed again when the file is flushed).
 * Files are written to a temp name, fsynced and renamed, so a reader never
 * sees half a file. A flusher claims a file by renaming it into `.inflight/`
 * with its pid in the name: a rename succeeds for one process only, so two
 * flushers never send the same file at once, and a claim left by a dead
 * process is put back by the next flusher. A file is deleted only after a 2xx.
 */
// node:fs's `promises` is read on first use: loading node:fs/promises costs ~2 ms of every start-up (BENCHMARKS.md).
import { constants, promises as fs } from 'node:fs';
import { join, resolve } from 'node:path';
import { CliError, ExitCode } from '../core/errors.js';
import { RefusedPath, refusalFor, replaceFile } from '../fs/no-follow.js';
import { ensureFolder } from '../fs/private-dir.js';

const INFLIGHT = '.inflight';
const REJECTED = 'rejected';
const SUFFIX = '.json';

/** The spool folder: the --spool value, else SERVICE_SPOOL_DIR, else $XDG_STATE_HOME/svcctl/spool. */
export function spoolDirectory(flag: string | true, env: NodeJS.ProcessEnv, homeDir: string, envDir: string | undefined, cwd: string): string {
  if (typeof flag === 'string' && flag !== '') return resolve(cwd, flag);
  if (envDir) return resolve(cwd, envDir);
  const state = env.XDG_STATE_HOME || join(homeDir, '.local', 'state');
  return join(state, 'svcctl', 'spool');
}

async function ensureDir(dir: string): Promise<void> {
  await ensureFolder(dir, { private: true });
}

const checkedFolders = new Set<string>();

/**
 * A spool folder must be the user's and writable by nobody else (as ssh
 * demands of ~/.ssh): anyone who can put a file there has it sent with the
 * user's ingest token, and could plant links at the names svcctl writes.
 * A missing folder is fine (it is created 0700). Not checked on Windows,
 * whose permissions are not mode bits.
 */
export async function checkSpoolFolder(dir: string): Promise<void> {
  const uid = process.getuid?.();
  if (uid === undefined || checkedFolders.has(dir)) return;
  let info;
  try {
    info = await fs.stat(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const problem = !info.isDirectory()
    ? 'is not a folder'
    : uid !== 0 && info.uid !== uid
      ? `belongs to another user (uid ${info.uid})`
      : (info.mode & 0o022) !== 0
        ? `can be written by other users (mode ${(info.mode & 0o7777).toString(8).padStart(4, '0')}): anyone could put events there to be sent with your token`
        : undefined;
  if (problem !== undefined) {
    throw new CliError(ExitCode.UnsafeConfig, `the spool folder ${dir} ${problem}; nothing was spooled or sent from it`, {
      hint: info.isDirectory() && problem.startsWith('can be') ? `chmod 700 '${dir}'` : 'use a folder of your own: --spool DIR or SERVICE_SPOOL_DIR',
    });
  }
  checkedFolders.add(dir);
}

const safeId = (id: string): string => id.replace(/[^A-Za-z0-9._-]/g, '_');

/** Writes one event durably (temp + fsync + rename); returns the file's path. */
export async function spoolEvent(dir: string, id: string, body: Uint8Array): Promise<string> {
  await checkSpoolFolder(dir);
  await ensureDir(dir);
  const final = join(dir, `${safeId(id)}${SUFFIX}`);
  await replaceFile(final, body, 0o600);
  const dirHandle = await fs.open(dir, 'r').catch(() => undefined);
  await dirHandle?.sync().catch(() => undefined);
  await dirHandle?.close();
  return final;
}

async function names(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Events waiting in the spool (claimed ones included). */
export async function countSpooled(dir: string): Promise<number> {
  const waiting = (await names(dir)).filter((n) => n.endsWith(SUFFIX) && !n.startsWith('.')).length;
  const inflight = (await names(join(dir, INFLIGHT))).filter((n) => n.includes(`${SUFFIX}.`)).length;
  return waiting + inflight;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Puts back the claims of flushers that are no longer running (kill -9 during a flush). */
export async function recoverStaleClaims(dir: string): Promise<number> {
  let recovered = 0;
  for (const name of await names(join(dir, INFLIGHT))) {
    const match = /^(.*\.json)\.(\d+)$/.exec(name);
    if (!match || alive(Number(match[2]))) continue;
    try {
      await fs.rename(join(dir, INFLIGHT, name), join(dir, match[1]));
      recovered++;
    } catch {
      // another flusher put it back first
    }
  }
  return recovered;
}

/** The spooled files not claimed by anyone, oldest name order. */
export async function listSpooled(dir: string): Promise<string[]> {
  return (await names(dir)).filter((n) => n.endsWith(SUFFIX) && !n.startsWith('.')).sort();
}

export interface Claim {
  name: string;
  id: string;
  path: string;
  body: Buffer;
}

/**
 * Claims one file for this process; undefined when another flusher took it
 * first. What is not a regular file of the user (a link, a folder) is put back
 * unread and reported as RefusedPath.
 */
export async function claim(dir: string, name: string): Promise<Claim | undefined> {
  await ensureDir(join(dir, INFLIGHT));
  const path = join(dir, INFLIGHT, `${name}.${process.pid}`);
  try {
    await fs.rename(join(dir, name), path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const body = await readOwnFile(path);
  if (typeof body === 'string') {
    await fs.rename(path, join(dir, name)).catch(() => undefined);
    throw new RefusedPath(join(dir, name), body);
  }
  return { name, id: name.slice(0, -SUFFIX.length), path, body };
}

/** The bytes of a regular file of the user, read without following a link; else why not. */
async function readOwnFile(path: string): Promise<Buffer | string> {
  let handle;
  try {
    handle = await fs.open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK' || code === 'EFTYPE') return 'is a symbolic link';
    if (code === 'EISDIR') return 'is a folder, not a file';
    throw error;
  }
  try {
    const info = await handle.stat();
    const refusal = info.isFile() ? refusalFor(info) : 'is not a regular file';
    return refusal ?? (await handle.readFile());
  } finally {
    await handle.close();
  }
}

/** Delivered: the file is gone. */
export const settle = (c: Claim): Promise<void> => fs.unlink(c.path);

/** Not delivered: the file goes back to wait for the next flush. */
export const release = (dir: string, c: Claim): Promise<void> => fs.rename(c.path, join(dir, c.name));

/** Rejected by the service: moved to rejected/ with the answer beside it. */
export async function reject(dir: string, c: Claim, answer: string): Promise<string> {
  const target = join(dir, REJECTED);
  await ensureDir(target);
  await replaceFile(join(target, `${c.id}.answer.txt`), answer, 0o600);
  const path = join(target, c.name);
  await fs.rename(c.path, path);
  return path;
}
