/**
 * A sandbox for tests: `startDev` runs src/dev's startSandbox in the test process (what most tests need: a
 * server); `spawnDev` runs `svcctl dev` as a real process (the built CLI, temp HOME, clean env), for tests of
 * the process itself (signals, exit codes, the ready line on stdout). Both hand over the ready line, the
 * request log so far and a way to stop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { rm } from 'node:fs/promises';
import { after, before } from 'node:test';
import { startSandbox } from '../../src/sandbox/sandbox-server.js';
import { parseUserFlag, parseWebhookFlag, type SandboxOptions } from '../../src/sandbox/sandbox-options.js';
import { BIN, cleanEnv, makeTempDir } from './cli-env.js';
import { runCli } from './cli.js';
import { pollUntil } from './poll.js';

export interface ReadyLine {
  base_url: string;
  mcp_url: string;
  users: Array<{ email: string; password: string }>;
  webhooks: Array<{ name: string; ingest_token: string; hmac_secret: string | null }>;
}

export interface DevServer {
  ready: ReadyLine;
  /** Everything the sandbox logged so far (the request log `svcctl dev` writes to stderr). */
  stderr(): string;
  /** Resolves with the log once it matches (log lines arrive a moment after the response); rejects after 5 s. */
  waitForStderr(pattern: RegExp): Promise<string>;
  stop(): Promise<unknown>;
}

export interface DevProcess extends DevServer {
  child: ChildProcess;
  home: string;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Resolves with stderr once it matches (log lines arrive a moment after the response); rejects after 5 s. */
  waitForStderr(pattern: RegExp): Promise<string>;
  /** Sends the signal and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface DevExit {
  code: number | null;
  stdout: string;
  stderr: string;
}

function spawnDevChild(
  args: string[],
  home: string,
  cwd: string,
): { child: ChildProcess; out: Buffer[]; err: Buffer[]; exited: Promise<[number | null, NodeJS.Signals | null]> } {
  const child = spawn(process.execPath, [BIN, 'dev', ...args], {
    cwd,
    env: cleanEnv(home),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('close', (c, s) => resolve([c, s])),
  );
  return { child, out, err, exited };
}

function pollFor(pattern: RegExp, text: () => string): Promise<string> {
  return pollUntil(
    () => `the log matching ${pattern}: ${text()}`,
    () => pattern.test(text()) && text(),
  );
}

/** The SandboxOptions of `svcctl dev ARGS` (the flags tests use), so a test reads as the command it stands for. */
function sandboxOptions(args: string[]): SandboxOptions {
  const options: SandboxOptions = { users: [], webhooks: [] };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    const value = (): string => {
      const next = args[++i];
      if (next === undefined) throw new Error(`${flag} needs a value`);
      return next;
    };
    if (flag === '--user') options.users!.push(parseUserFlag(value()));
    else if (flag === '--webhook') options.webhooks!.push(parseWebhookFlag(value()));
    else if (flag === '--token-ttl') options.tokenTtlSeconds = Number(value());
    else if (flag === '--events-file') options.eventsFile = value();
    else if (flag === '--max-body') options.maxBodyBytes = Number(value());
    else if (flag === '--port') options.port = Number(value());
    else if (flag === '--one-session-per-user') options.oneSessionPerUser = true;
    else if (flag === '--protocol') options.protocol = value() as SandboxOptions['protocol'];
    else throw new Error(`startDev does not know ${flag}: use spawnDev`);
  }
  return options;
}

/**
 * The sandbox of `svcctl dev ARGS`, in the test process: the ready line, the request log, stop(). `now` is its
 * clock (tokens are issued and expire by it).
 */
export async function startDev(args: string[] = [], options: { now?: () => Date } = {}): Promise<DevServer> {
  const lines: string[] = [];
  const sandbox = await startSandbox({
    ...sandboxOptions(args),
    log: (line) => lines.push(line),
    ...(options.now ? { now: options.now } : {}),
  });
  const log = (): string => lines.map((line) => `${line}\n`).join('');
  let stopped: Promise<void> | undefined;
  return {
    ready: sandbox.readyLine() as unknown as ReadyLine,
    stderr: log,
    waitForStderr: (pattern) => pollFor(pattern, log),
    stop: () => (stopped ??= sandbox.close()),
  };
}

/** Starts `svcctl dev ARGS` as a process and resolves with its ready line (rejects if it exits first). */
export async function spawnDev(
  args: string[] = [],
  options: { home?: string; cwd?: string } = {},
): Promise<DevProcess> {
  const home = options.home ?? (await makeTempDir('svcctl-dev-home-'));
  const { child, out, err, exited } = spawnDevChild(args, home, options.cwd ?? home);
  const text = (chunks: Buffer[]): string => Buffer.concat(chunks).toString('utf8');
  const ready = await new Promise<ReadyLine>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line within 10 s; stderr: ${text(err)}`)), 10_000);
    child.stdout?.on('data', () => {
      const all = text(out);
      const end = all.indexOf('\n');
      if (end === -1) return;
      clearTimeout(timer);
      resolve(JSON.parse(all.slice(0, end)) as ReadyLine);
    });
    void exited.then(([code]) => {
      clearTimeout(timer);
      reject(new Error(`svcctl dev exited with ${code} before it was ready; stderr: ${text(err)}`));
    });
  });
  let stopped: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | undefined;
  return {
    ready,
    child,
    home,
    stderr: () => text(err),
    stdout: () => text(out),
    waitForStderr: (pattern) => pollFor(pattern, () => text(err)),
    stop: (signal = 'SIGTERM') =>
      (stopped ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        const [code, sig] = await exited;
        clearTimeout(killer);
        if (!options.home) await rm(home, { recursive: true, force: true });
        return { code, signal: sig };
      })()),
  };
}

/** Runs `svcctl dev ARGS` (in the test process) expecting it to fail before it is ready. */
export async function runDevExpectingExit(args: string[]): Promise<DevExit> {
  const { code, stdout, stderr } = await runCli(['dev', ...args], { timeoutMs: 10_000 });
  return { code, stdout, stderr };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with Node's own http client: the exact bytes given, nothing added. */
export function httpRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const body = init.body === undefined ? undefined : Buffer.from(init.body);
    const headers: Record<string, string | number> = { ...init.headers };
    if (body) headers['content-length'] = body.length;
    const req = request(url, { method: init.method ?? (body ? 'POST' : 'GET'), headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * One sandbox with one user for a whole test file (started before its first test, stopped after the
 * last), and the variables that point svcctl at it as that user. Call at the top of the file.
 */
export function sandboxWithUser(user: { email: string; password: string }): {
  ready(): ReadyLine;
  credentials(): Record<string, string>;
} {
  let dev: DevServer | undefined;
  before(async () => {
    dev = await startDev(['--user', `${user.email}:${user.password}`]);
  });
  after(async () => {
    await dev?.stop();
  });
  const ready = (): ReadyLine => {
    if (!dev) throw new Error('the sandbox runs only inside the tests of its file');
    return dev.ready;
  };
  return {
    ready,
    credentials: () => ({
      SERVICE_MCP_URL: ready().mcp_url,
      SERVICE_BASE_URL: ready().base_url,
      SERVICE_EMAIL: user.email,
      SERVICE_PASSWORD: user.password,
    }),
  };
}
