// Spawned without a shell: no quoting surprises on any platform.
import { type ChildProcess, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

export const TAIL_BUFFER_BYTES = 64 * 1024;
const KILL_GRACE_MS = 5000;

export interface RunOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
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

/**
 * On POSIX the command leads a process group of its own (`detached`: a new session), so that the timeout and a
 * forwarded signal reach what it started too: a grandchild left holding stderr would otherwise keep svcctl waiting.
 * The price: the command has no controlling terminal, so svcctl forwards SIGINT and SIGTERM to the group itself.
 */
export function runCommand(spec: RunSpec): Promise<RunOutcome> {
  const started = performance.now();
  const grace = spec.graceMs ?? KILL_GRACE_MS;
  const tail = new TailBuffer(TAIL_BUFFER_BYTES);
  const ownGroup = spec.platform !== 'win32';
  const child = spawn(spec.command, spec.args, {
    env: spec.env,
    cwd: spec.cwd,
    stdio: ['inherit', 'inherit', 'pipe'],
    detached: ownGroup,
  });
  const stderr = child.stderr!;
  const signalJob = (signal: NodeJS.Signals): void => signalCommand(child, ownGroup, signal);
  let timedOut = false;
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let killTimer: NodeJS.Timeout | undefined;
  let stderrTimer: NodeJS.Timeout | undefined;
  const limit =
    spec.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          if (!exit) timedOut = true;
          signalJob('SIGTERM');
          killTimer = setTimeout(() => signalJob('SIGKILL'), grace);
        }, spec.timeoutMs);
  const removeForwarder = spec.onSignal(signalJob);
  // svcctl ending first (a second Ctrl+C) must not leave the command running unattended in a session of its own.
  const endGroup = (): void => signalJob('SIGTERM');
  process.once('exit', endGroup);
  passStderr(stderr, spec.stderr, tail);
  return new Promise((resolve) => {
    let done = false;
    const finish = (code: number | null, signal: NodeJS.Signals | null, spawnError?: NodeJS.ErrnoException): void => {
      if (done) return;
      done = true;
      clearTimeout(limit);
      clearTimeout(killTimer);
      clearTimeout(stderrTimer);
      removeForwarder();
      process.removeListener('exit', endGroup);
      resolve({
        code,
        signal,
        timedOut,
        spawnError,
        durationMs: performance.now() - started,
        stderrTail: tail.bytes(),
      });
    };
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (child.pid === undefined) finish(error.code === 'ENOENT' ? 127 : 126, null, error);
    });
    stderr.once('close', () => {
      if (exit) finish(exit.code, exit.signal);
    });
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      process.removeListener('exit', endGroup);
      if (stderr.destroyed) return finish(code, signal);
      // What the command left running may hold stderr for ever: read what comes within the grace, then stop.
      stderrTimer = setTimeout(() => {
        stderr.destroy();
        finish(code, signal);
      }, grace);
    });
  });
}

/** To the command's process group on POSIX (what it started too), to the command alone on Windows. */
function signalCommand(child: ChildProcess, ownGroup: boolean, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    if (ownGroup) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // ESRCH: the group has ended already.
  }
}

/** The command's stderr goes on to svcctl's, its last bytes kept for the event. */
function passStderr(from: Readable, to: RunSpec['stderr'], tail: TailBuffer): void {
  from.on('data', (chunk: Buffer) => {
    tail.push(chunk);
    // Back-pressure: a slow stderr slows the command instead of filling memory.
    if (!to.write(chunk) && to.once) {
      from.pause();
      to.once('drain', () => from.resume());
    }
  });
}

export function exitCodeOf(outcome: RunOutcome, signalNumber: (signal: NodeJS.Signals) => number): number {
  if (outcome.code !== null) return outcome.code;
  if (outcome.signal) return 128 + signalNumber(outcome.signal);
  return 1;
}
