/**
 * The two ways a test runs svcctl. `runCli` runs `main(argv, io)` in the test process (cli-in-process.ts):
 * use it unless the process is what is tested. `spawnCli` runs the built CLI (bin/svcctl.js) as a child
 * process: start-up, signals, closed pipes, a terminal, exit on a fatal error. Both take a temp HOME and a
 * clean environment and give the same result shape.
 */
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { BIN, cleanEnv, makeTempDir, type RunOptions, type RunResult } from './cli-env.js';

export {
  BIN,
  ROOT,
  cleanEnv,
  placeFile,
  placeSecretFile,
  secretsIn,
  type RunOptions,
  type RunResult,
} from './cli-env.js';
export { buildProgram, runCli, type InProcessOptions } from './cli-in-process.js';

export interface SpawnOptions extends Omit<RunOptions, 'now' | 'pause'> {
  /** Leave stdin open and never write to it (to prove a command does not wait for it). */
  openStdin?: boolean;
  /** The svcctl script to run (default: this clone's bin/svcctl.js). */
  bin?: string;
}

export async function spawnCli(args: string[], options: SpawnOptions = {}): Promise<RunResult> {
  const home = options.home ?? (await makeTempDir('svcctl-home-'));
  const child = spawn(process.execPath, [options.bin ?? BIN, ...args], {
    cwd: options.cwd ?? home,
    env: cleanEnv(home, options.env),
    stdio: [options.input !== undefined || options.openStdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr!.on('data', (chunk: Buffer) => err.push(chunk));
  if (options.input !== undefined) child.stdin?.end(options.input);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.timeoutMs ?? 20_000);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('close', (c, s) => resolve([c, s])),
  );
  clearTimeout(timer);
  if (!options.home) await rm(home, { recursive: true, force: true });
  const stdoutBytes = Buffer.concat(out);
  return {
    code,
    signal,
    stdout: stdoutBytes.toString('utf8'),
    stderr: Buffer.concat(err).toString('utf8'),
    stdoutBytes,
    timedOut,
  };
}
