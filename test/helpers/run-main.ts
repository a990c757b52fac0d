/**
 * Runs svcctl's main(argv, io) in this process, with a temp HOME, a clean
 * environment and captured output: much faster than a child process for
 * tests that run many commands. Spawn the built CLI (cli.ts) where the
 * process itself is the point (signals, exit on a closed pipe, start-up).
 */
import { PassThrough, Readable } from 'node:stream';
import { main } from '../../src/top-level.js';
import { KnownSecrets } from '../../src/secrets/known-secrets.js';
import { cleanEnv } from './cli.js';

export interface MainResult {
  code: number;
  stdout: string;
  stderr: string;
}

function capture(): { stream: PassThrough & { isTTY?: boolean }; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

export async function runMain(args: string[], options: { home: string; cwd?: string; env?: Record<string, string | undefined>; input?: string }): Promise<MainResult> {
  const stdout = capture();
  const stderr = capture();
  const code = await main(args, {
    env: cleanEnv(options.home, options.env),
    cwd: options.cwd ?? options.home,
    homeDir: options.home,
    stdin: Readable.from(options.input === undefined ? [] : [options.input]),
    stdout: stdout.stream,
    stderr: stderr.stream,
    secrets: new KnownSecrets(),
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
