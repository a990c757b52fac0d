/**
 * What every run of svcctl in a test shares, in a process or not: a temp HOME and a clean environment
 * (no SERVICE_* variable of the developer's shell leaks in, and no test ever touches the real home folder).
 */
import { realpathSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Through the link that the compiled tests' folder has for package.json, to the checkout itself.
export const ROOT = dirname(realpathSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'package.json')));
export const BIN = join(ROOT, 'bin', 'svcctl.js');

export interface RunOptions {
  env?: Record<string, string | undefined>;
  /** Bytes for stdin; without it stdin is empty (/dev/null for a process). */
  input?: string | Buffer;
  home?: string;
  cwd?: string;
  timeoutMs?: number;
  /** The run's clock (Context.now): move time instead of sleeping. In-process runs only. */
  now?: () => Date;
  /** Context.pause: the wait before install reads its write back. In-process runs only. */
  pause?: (ms: number) => Promise<void>;
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
    // Each XDG folder too, where the defaults would put it: a child never falls back to the real home (issue 47).
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    NO_COLOR: '1',
    CI: 'true',
    LANG: 'C.UTF-8',
    // A local entry's package is looked up at `mcp install` from npm's registry: tests never reach the network.
    // Tests of that lookup give a registry on 127.0.0.1 and unset this (src/mcp/install/package-check.ts).
    npm_config_offline: 'true',
  };
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
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

/** A file for --token-file, --hmac-secret-file or --password-file: svcctl refuses one that others may read. */
export async function placeSecretFile(root: string, path: string, text: string): Promise<string> {
  const full = join(root, path);
  await mkdir(dirname(full), { recursive: true });
  await writeFile(full, text, { mode: 0o600 });
  return full;
}
