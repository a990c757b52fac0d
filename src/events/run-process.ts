// Spawned without a shell: no quoting surprises on any platform.
import { spawn } from 'node:child_process';

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
  stderr: { write(chunk: Uint8Array): boolean; once?(event: 'drain', listener: () => void): unknown };
  timeoutMs?: number;
  onSignal: (forward: (signal: NodeJS.Signals) => void) => () => void;
}

export function runCommand(spec: RunSpec): Promise<RunOutcome> {
  const started = performance.now();
  const tail = new TailBuffer(TAIL_BUFFER_BYTES);
  const child = spawn(spec.command, spec.args, { env: spec.env, cwd: spec.cwd, stdio: ['inherit', 'inherit', 'pipe'] });
  let timedOut = false;
  let killTimer: NodeJS.Timeout | undefined;
  const limit =
    spec.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          child.kill('SIGTERM');
          killTimer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
        }, spec.timeoutMs);
  const removeForwarder = spec.onSignal((signal) => child.kill(signal));
  child.stderr!.on('data', (chunk: Buffer) => {
    tail.push(chunk);
    // Back-pressure: a slow stderr slows the command instead of filling memory.
    if (!spec.stderr.write(chunk) && spec.stderr.once) {
      child.stderr!.pause();
      spec.stderr.once('drain', () => child.stderr!.resume());
    }
  });
  return new Promise((resolve) => {
    const finish = (code: number | null, signal: NodeJS.Signals | null, spawnError?: NodeJS.ErrnoException): void => {
      clearTimeout(limit);
      clearTimeout(killTimer);
      removeForwarder();
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
    child.once('close', (code, signal) => finish(code, signal));
  });
}

export function exitCodeOf(outcome: RunOutcome, signalNumber: (signal: NodeJS.Signals) => number): number {
  if (outcome.code !== null) return outcome.code;
  if (outcome.signal) return 128 + signalNumber(outcome.signal);
  return 1;
}
