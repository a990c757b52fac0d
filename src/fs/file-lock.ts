// A lock per file between svcctl runs; its lifetime and take-over: docs/security.md ("Concurrent writers").
import { constants, unlinkSync } from 'node:fs';
import { open, readFile, stat, unlink, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';

export interface LockOptions {
  waitMs?: number;
  onWait?: (holder: LockHolder | undefined) => void;
  noticeAfterMs?: number;
  /** A lock not refreshed for this long counts as abandoned (default 30 s). */
  staleMs?: number;
}

export interface LockHolder {
  pid: number;
  host: string;
  at: string;
}

export interface FileLock {
  path: string;
  release(): Promise<void>;
}

export class LockBusyError extends Error {
  constructor(
    readonly lockPath: string,
    readonly holder: LockHolder | undefined,
  ) {
    super(`${lockPath} is held by ${holder ? `process ${holder.pid} on ${holder.host}` : 'another process'}`);
  }
}

export const lockPathOf = (file: string): string => `${file}.svcctl.lock`;

const held = new Set<string>();
let exitHookInstalled = false;

function removeHeldOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const path of held) {
      try {
        unlinkSync(path);
      } catch {
        // already gone
      }
    }
  });
}

async function readHolder(path: string): Promise<LockHolder | undefined> {
  try {
    const holder = JSON.parse(await readFile(path, 'utf8')) as LockHolder;
    return typeof holder.pid === 'number' && typeof holder.host === 'string' ? holder : undefined;
  } catch {
    return undefined;
  }
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function isStale(path: string, holder: LockHolder | undefined, staleMs: number): Promise<boolean> {
  if (holder && holder.host === hostname() && holder.pid !== process.pid && !isProcessAlive(holder.pid)) return true;
  try {
    const age = Date.now() - (await stat(path)).mtimeMs;
    // A holder writes its record right after creating the file: one still without it was left by a killed run.
    return age > (holder ? staleMs : UNREADABLE_STALE_MS);
  } catch {
    return false; // gone meanwhile: the next attempt takes it
  }
}

const UNREADABLE_STALE_MS = 2_000;

const sameHolder = (a: LockHolder | undefined, b: LockHolder | undefined): boolean =>
  a === undefined ? b === undefined : b !== undefined && a.pid === b.pid && a.host === b.host && a.at === b.at;

async function tryCreate(path: string): Promise<boolean> {
  try {
    const handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    const holder: LockHolder = { pid: process.pid, host: hostname(), at: new Date().toISOString() };
    try {
      await handle.writeFile(JSON.stringify(holder)).finally(() => handle.close());
    } catch (error) {
      // A full disk: never leave an empty lock behind for the next run to wait on.
      await unlink(path).catch(() => undefined);
      throw error;
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function acquireFileLock(file: string, options: LockOptions = {}): Promise<FileLock> {
  const path = lockPathOf(file);
  const { waitMs = 10_000, noticeAfterMs = 1_000, staleMs = 30_000 } = options;
  const started = Date.now();
  let noticed = false;
  for (;;) {
    if (await tryCreate(path)) break;
    const holder = await readHolder(path);
    if (await isStale(path, holder, staleMs)) {
      // Remove it only if it is still the lock judged stale (another waiter may have replaced it just now).
      if (sameHolder(holder, await readHolder(path))) await unlink(path).catch(() => undefined);
      continue;
    }
    const waited = Date.now() - started;
    if (waited >= waitMs) throw new LockBusyError(path, holder);
    if (!noticed && waited >= noticeAfterMs) {
      noticed = true;
      options.onWait?.(holder);
    }
    await pause(20 + Math.random() * 30);
  }
  held.add(path);
  removeHeldOnExit();
  const refresh = setInterval(
    () => {
      const now = new Date();
      utimes(path, now, now).catch(() => undefined);
    },
    Math.max(1_000, staleMs / 3),
  );
  refresh.unref();
  return {
    path,
    async release() {
      clearInterval(refresh);
      if (!held.delete(path)) return;
      await unlink(path).catch(() => undefined);
    },
  };
}

/** For runs that write nothing and so never take the lock: a run killed with SIGKILL skips its exit hook. */
export async function clearAbandonedLock(file: string): Promise<void> {
  const path = lockPathOf(file);
  const holder = await readHolder(path);
  if (!holder || holder.host !== hostname() || holder.pid === process.pid || isProcessAlive(holder.pid)) return;
  if (sameHolder(holder, await readHolder(path))) await unlink(path).catch(() => undefined);
}

export async function withFileLock<T>(file: string, options: LockOptions, work: () => Promise<T>): Promise<T> {
  const lock = await acquireFileLock(file, options);
  try {
    return await work();
  } finally {
    await lock.release();
  }
}
