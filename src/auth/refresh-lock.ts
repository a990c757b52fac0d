/**
 * One login at a time per credentials file: concurrent `svcctl token
 * --refresh` helpers and proxies wait for the one that is logging in, then
 * read the token it saved instead of logging in again.
 *
 * The lock is a file beside the credentials file (`credentials.json.lock`),
 * created with O_EXCL; a lock older than STALE_MS is taken to belong to a
 * process that died and is removed. Only this interface is used elsewhere, so
 * it can be swapped for the project's shared file lock.
 */
import { mkdir, open, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CliError, ExitCode } from '../errors.js';

const STALE_MS = 60_000;
const POLL_MS = 50;

export interface LockOptions {
  /** Give up after this long (ms). */
  waitMs: number;
}

async function tryCreate(lockPath: string): Promise<boolean> {
  try {
    const handle = await open(lockPath, 'wx', 0o600);
    await handle.writeFile(`${process.pid}\n`);
    await handle.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function removeIfStale(lockPath: string): Promise<void> {
  const info = await stat(lockPath).catch(() => undefined);
  if (info && Date.now() - info.mtimeMs > STALE_MS) await rm(lockPath, { force: true });
}

/** Runs `work` holding the lock of `path`. */
export async function withFileLock<T>(path: string, options: LockOptions, work: () => Promise<T>): Promise<T> {
  const lockPath = `${path}.lock`;
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const deadline = Date.now() + options.waitMs;
  while (!(await tryCreate(lockPath))) {
    await removeIfStale(lockPath);
    if (Date.now() > deadline) {
      throw new CliError(ExitCode.UnsafeConfig, `another svcctl has been logging in for over ${Math.round(options.waitMs / 1000)} s (lock ${lockPath})`, {
        hint: 'if no svcctl is running, delete the lock file',
      });
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  try {
    return await work();
  } finally {
    await rm(lockPath, { force: true });
  }
}
