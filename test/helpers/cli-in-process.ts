/**
 * Runs svcctl's `main(argv, io)` inside the test process, with a temp HOME, a clean environment and the
 * result shape of a process run, but no child process: most tests check what a command does, not how a
 * process starts, and a spawn costs ~150 ms of a 2-core machine. `runCli` (cli.ts) is this runner.
 */
import { PassThrough, Readable } from 'node:stream';
import { rm } from 'node:fs/promises';
import { createProgram, type Io } from '../../src/cli/program.js';
import type { SecretStore } from '../../src/core/context.js';
import { main } from '../../src/main.js';
import { KnownSecrets } from '../../src/redaction/known-secrets.js';
import { BIN, cleanEnv, makeTempDir, type RunOptions, type RunResult } from './cli-env.js';

export interface InProcessOptions extends RunOptions {
  /** A stdin the test holds (e.g. one never ended, to prove a command does not wait for it); instead of `input`. */
  stdin?: NodeJS.ReadableStream;
  /** Sees stdout as it is written (e.g. to answer a line before stdin ends); the result still has all of it. */
  onStdout?: (chunk: Buffer) => void;
  /** The svcctl script main() is told it runs as (default: this clone's bin/svcctl.js), as a copy elsewhere would. */
  script?: string;
  /** The platform main() is told it runs on (default: this machine's), for the lines and paths of another. */
  platform?: NodeJS.Platform;
  /** Install waits 30 and 150 ms before reading its write back, as a real run does (confirm-entry.ts); without it the
   * read-back is at once: no other program writes the client's files unless the test starts one. */
  realPause?: boolean;
  /** The OS keychain main() is given for tokens (Context.secretStore), e.g. a Credential Manager in memory. */
  secretStore?: SecretStore;
}

function collector(): { stream: PassThrough; bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, bytes: () => Buffer.concat(chunks) };
}

export async function runCli(args: string[], options: InProcessOptions = {}): Promise<RunResult> {
  const home = options.home ?? (await makeTempDir('svcctl-home-'));
  const stdout = collector();
  if (options.onStdout) stdout.stream.on('data', options.onStdout);
  const stderr = collector();
  const stdin =
    options.stdin ?? (options.input === undefined ? Readable.from([]) : Readable.from([Buffer.from(options.input)]));
  const run = main(args, {
    env: cleanEnv(home, options.env),
    cwd: options.cwd ?? home,
    homeDir: home,
    stdin,
    stdout: stdout.stream,
    stderr: stderr.stream,
    program: { execPath: process.execPath, script: options.script ?? BIN },
    ...(options.platform ? { platform: options.platform } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.realPause ? {} : { pause: options.pause ?? noPause }),
    ...(options.secretStore ? { secretStore: options.secretStore } : {}),
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), options.timeoutMs ?? 20_000);
  });
  const outcome = await Promise.race([run, timeout]);
  clearTimeout(timer);
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (!options.home) await rm(home, { recursive: true, force: true });
  const stdoutBytes = stdout.bytes();
  return {
    code: outcome === 'timeout' ? null : outcome,
    signal: null,
    stdout: stdoutBytes.toString('utf8'),
    stderr: stderr.bytes().toString('utf8'),
    stdoutBytes,
    timedOut: outcome === 'timeout',
  };
}

/** runCli's default `pause`: install reads its write back at once instead of after 30 and 150 ms (confirm-entry.ts),
 * waits that only a client rewriting its file needs (`realPause` keeps them). */
const noPause = async (): Promise<void> => {};

/** The commander program as main() builds it for `argv` (all of it without), its output going nowhere: its shape. */
export function buildProgram(argv?: string[]) {
  const sink = { write: () => true, isTTY: false } as unknown as Io['stdout'];
  const io: Io = {
    env: {},
    cwd: '/',
    homeDir: '/nonexistent',
    platform: 'linux',
    stdin: process.stdin,
    stdout: sink,
    stderr: sink,
    version: '9.9.9',
    secrets: new KnownSecrets(),
  };
  return createProgram(io, argv);
}
