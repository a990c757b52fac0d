/**
 * Runs the built CLI (bin/svcctl.js) as a child process with a temp HOME and a
 * clean environment: no SERVICE_* variable of the developer's shell leaks in,
 * and no test ever touches the real home folder.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = join(ROOT, 'bin', 'svcctl.js');

export interface RunOptions {
  env?: Record<string, string | undefined>;
  /** Bytes for stdin; without it stdin is /dev/null. */
  input?: string | Buffer;
  /** Leave stdin open and never write to it (to prove a command does not wait for it). */
  openStdin?: boolean;
  home?: string;
  cwd?: string;
  timeoutMs?: number;
  /** The svcctl script to run (default: this clone's bin/svcctl.js). */
  bin?: string;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  stdoutBytes: Buffer;
  timedOut: boolean;
}

export function cleanEnv(home: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    NO_COLOR: '1',
    CI: 'true',
    LANG: 'C.UTF-8',
  };
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

export async function runCli(args: string[], options: RunOptions = {}): Promise<RunResult> {
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
  return { code, signal, stdout: stdoutBytes.toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), stdoutBytes, timedOut };
}

const madeDirs: string[] = [];
// Every temp folder of a test file goes when its process ends (node --test runs each file in its own).
process.on('exit', () => {
  for (const dir of madeDirs) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // a folder a test made unreadable: left to the system's temp cleaning
    }
  }
});

export async function makeTempDir(prefix = 'svcctl-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  madeDirs.push(dir);
  return dir;
}

/** Asserts that no secret value appears anywhere in a run's output. */
export function secretsIn(result: RunResult, secrets: string[]): string[] {
  return secrets.filter((secret) => result.stdout.includes(secret) || result.stderr.includes(secret));
}

/** Writes a file under `root`, creating its folders; returns its full path. */
export async function placeFile(root: string, path: string, text: string | Buffer): Promise<string> {
  const full = join(root, path);
  await mkdir(dirname(full), { recursive: true });
  await writeFile(full, text);
  return full;
}
