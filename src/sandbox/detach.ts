// The child (`dev --detached-child`) runs in a new session, so Ctrl+C and closing the terminal leave it running;
// its pipes are closed once it is ready, so it never writes into the terminal.
import { spawn } from 'node:child_process';
import { DEV_DETACHED_CHILD_FLAG } from '../core/constants.js';
import type { RunningProgram } from '../core/context.js';
import { CliError, ExitCode, type ExitCodeValue } from '../core/errors.js';
import { onInterrupt } from '../core/interrupt.js';
import type { ReadyLine } from './ready-output.js';

/** It is usually ready in well under a second. */
const READY_WITHIN_MS = 30_000;

export interface DetachedSandbox {
  ready: ReadyLine;
  pid: number;
}

export interface DetachOptions {
  program: RunningProgram;
  /** Paths already absolute. */
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  stderr: { write(text: string): unknown };
}

export function startDetached(options: DetachOptions): Promise<DetachedSandbox> {
  const { program } = options;
  if (program.script === undefined) {
    return Promise.reject(
      new CliError(ExitCode.Usage, 'svcctl cannot start itself in the background here', {
        hint: 'run `svcctl dev` in the background with your shell instead',
      }),
    );
  }
  const child = spawn(program.execPath, [program.script, 'dev', DEV_DETACHED_CHILD_FLAG, ...options.args], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (err += chunk));
  return new Promise<DetachedSandbox>((resolve, reject) => {
    let settled = false;
    const stopInterrupt = onInterrupt(() => child.kill('SIGTERM'));
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stopInterrupt();
      outcome();
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(() =>
        reject(
          new CliError(ExitCode.Unavailable, `the sandbox was not ready within ${READY_WITHIN_MS / 1000} s`, {
            hint: err.trim() || undefined,
          }),
        ),
      );
    }, READY_WITHIN_MS);
    child.on('error', (error) =>
      finish(() =>
        reject(new CliError(ExitCode.Unavailable, `cannot start the sandbox in the background: ${error.message}`)),
      ),
    );
    child.on('exit', (code, signal) => {
      finish(() => {
        options.stderr.write(err);
        const exitCode = (
          signal !== null ? ExitCode.Interrupted : code === 0 || code === null ? ExitCode.Internal : code
        ) as ExitCodeValue;
        reject(new CliError(exitCode, 'the sandbox stopped before it was ready', { silent: err.trim() !== '' }));
      });
    });
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      const end = out.indexOf('\n');
      if (end < 0) return;
      finish(() => {
        let ready: ReadyLine;
        try {
          ready = JSON.parse(out.slice(0, end)) as ReadyLine;
        } catch {
          child.kill('SIGTERM');
          reject(new CliError(ExitCode.Internal, 'the background sandbox printed no ready line'));
          return;
        }
        // Let go of it: its pipes close here, and this process may exit while it runs on.
        child.stdout.destroy();
        child.stderr.destroy();
        child.unref();
        resolve({ ready, pid: child.pid as number });
      });
    });
  });
}
