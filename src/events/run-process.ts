// Spawned without a shell: no quoting surprises on any platform.
import { type ChildProcess, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

export const TAIL_BUFFER_BYTES = 64 * 1024;
const KILL_GRACE_MS = 5000;

export interface RunOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** The signal svcctl was sent (and forwarded) while the command ran, unless the timeout had passed first. */
  cancelledBy?: NodeJS.Signals;
  spawnError?: NodeJS.ErrnoException;
  durationMs: number;
  stderrTail: Buffer;
}

export class TailBuffer {
  private chunks: Buffer[] = [];
  private length = 0;
  constructor(private readonly size: number) {}

  push(chunk: Buffer): void {
    const kept = chunk.length > this.size ? chunk.subarray(chunk.length - this.size) : chunk;
    this.chunks.push(Buffer.from(kept));
    this.length += kept.length;
    while (this.length - this.chunks[0].length >= this.size) this.length -= this.chunks.shift()!.length;
  }

  bytes(): Buffer {
    const all = Buffer.concat(this.chunks);
    return all.length > this.size ? all.subarray(all.length - this.size) : all;
  }
}

export interface RunSpec {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  platform: NodeJS.Platform;
  stderr: { write(chunk: Uint8Array): boolean; once?(event: 'drain', listener: () => void): unknown };
  timeoutMs?: number;
  /** From SIGTERM to SIGKILL, and the longest wait for stderr to close once the command has exited. */
  graceMs?: number;
  onSignal: (forward: (signal: NodeJS.Signals) => void) => () => void;
}

interface Job {
  child: ChildProcess;
  /** To the command's process group on POSIX (the command alone on Windows); nothing once the group has ended. */
  signalJob: (signal: NodeJS.Signals) => void;
}

/** On POSIX the command leads a process group of its own (`detached`: a new session), so that the timeout and a
 * forwarded signal reach what it started too: a grandchild left holding stderr would otherwise keep svcctl waiting. The
 * price: the command has no controlling terminal, so svcctl forwards SIGINT and SIGTERM to the group itself. */
function spawnJob(spec: RunSpec): Job {
  const ownGroup = spec.platform !== 'win32';
  const child = spawn(spec.command, spec.args, {
    env: spec.env,
    cwd: spec.cwd,
    stdio: ['inherit', 'inherit', 'pipe'],
    detached: ownGroup,
  });
  const signalJob = (signal: NodeJS.Signals): void => {
    if (child.pid === undefined) return;
    try {
      if (ownGroup) process.kill(-child.pid, signal);
      else child.kill(signal);
    } catch {
      // ESRCH: the group has ended already.
    }
  };
  return { child, signalJob };
}

interface Deadline {
  /** The timeout came before the command exited. */
  readonly timedOut: boolean;
  clear(): void;
}

/** SIGTERM at the timeout, SIGKILL after the grace; both also after the command's exit, for what it left running. */
function startDeadline(spec: RunSpec, grace: number, job: Job, hasEnded: () => boolean): Deadline {
  let timedOut = false;
  let killTimer: NodeJS.Timeout | undefined;
  const limit =
    spec.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          if (!hasEnded()) timedOut = true;
          job.signalJob('SIGTERM');
          killTimer = setTimeout(() => job.signalJob('SIGKILL'), grace);
        }, spec.timeoutMs);
  return {
    get timedOut() {
      return timedOut;
    },
    clear() {
      clearTimeout(limit);
      clearTimeout(killTimer);
    },
  };
}

/** The command's stderr to svcctl's, keeping the last bytes for the event. */
function teeStderr(stderr: Readable, spec: RunSpec, tail: TailBuffer): void {
  stderr.on('data', (chunk: Buffer) => {
    tail.push(chunk);
    // Back-pressure: a slow stderr slows the command instead of filling memory.
    if (!spec.stderr.write(chunk) && spec.stderr.once) {
      stderr.pause();
      spec.stderr.once('drain', () => stderr.resume());
    }
  });
}

type Ending = Pick<RunOutcome, 'code' | 'signal' | 'spawnError'>;

/** Its exit and stderr's close, or a spawn that failed. */
function waitForEnd(child: ChildProcess, stderr: Readable, grace: number, onExit: () => void): Promise<Ending> {
  return new Promise((resolve) => {
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let stderrTimer: NodeJS.Timeout | undefined;
    const finish = (code: number | null, signal: NodeJS.Signals | null, spawnError?: NodeJS.ErrnoException): void => {
      clearTimeout(stderrTimer);
      resolve({ code, signal, spawnError });
    };
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (child.pid === undefined) finish(error.code === 'ENOENT' ? 127 : 126, null, error);
    });
    stderr.once('close', () => {
      if (exit) finish(exit.code, exit.signal);
    });
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      onExit();
      if (stderr.destroyed) return finish(code, signal);
      // What the command left running may hold stderr for ever: read what comes within the grace, then stop.
      stderrTimer = setTimeout(() => {
        stderr.destroy();
        finish(code, signal);
      }, grace);
    });
  });
}

export function runCommand(spec: RunSpec): Promise<RunOutcome> {
  const started = performance.now();
  const grace = spec.graceMs ?? KILL_GRACE_MS;
  const tail = new TailBuffer(TAIL_BUFFER_BYTES);
  const job = spawnJob(spec);
  const stderr = job.child.stderr!;
  let exited = false;
  let cancelledBy: NodeJS.Signals | undefined;
  // What comes first names the run: a cancel after the timeout (or after the command ended) changes nothing.
  const deadline = startDeadline(spec, grace, job, () => exited || cancelledBy !== undefined);
  const removeForwarder = spec.onSignal((signal) => {
    if (!exited && !deadline.timedOut && cancelledBy === undefined) cancelledBy = signal;
    job.signalJob(signal);
  });
  // svcctl ending first (a second Ctrl+C) must not leave the command running unattended in a session of its own.
  const endGroup = (): void => job.signalJob('SIGTERM');
  process.once('exit', endGroup);
  teeStderr(stderr, spec, tail);
  const ended = waitForEnd(job.child, stderr, grace, () => {
    exited = true;
    process.removeListener('exit', endGroup);
  });
  return ended.then((ending) => {
    deadline.clear();
    removeForwarder();
    process.removeListener('exit', endGroup);
    return {
      ...ending,
      timedOut: deadline.timedOut,
      cancelledBy,
      durationMs: performance.now() - started,
      stderrTail: tail.bytes(),
    };
  });
}

export function exitCodeOf(outcome: RunOutcome, signalNumber: (signal: NodeJS.Signals) => number): number {
  if (outcome.code !== null) return outcome.code;
  if (outcome.signal) return 128 + signalNumber(outcome.signal);
  return 1;
}
