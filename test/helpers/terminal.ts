/**
 * Runs a shell command under a real pseudo-terminal (util-linux `script`), so
 * that svcctl's stdin and stderr are a terminal: prompts can be read and
 * answered as a person would.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cleanEnv } from './cli-env.js';

export const hasScript = spawnSync('script', ['--version']).status === 0;

export interface Session {
  /** Everything the terminal showed. */
  screen(): string;
  waitFor(pattern: RegExp): Promise<void>;
  type(text: string): void;
  done: Promise<number | null>;
}

/** Runs a shell command under `script`, so its stdin and stderr are a terminal. */
export function underTerminal(
  command: string,
  home: string,
  env: Record<string, string | undefined> = {},
  /** The session is killed after this long: a safety net for a hung command, never the wait itself. */
  killAfterMs = 15_000,
): Session {
  const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
    cwd: home,
    env: { ...cleanEnv(home, env), TERM: 'xterm', COLUMNS: '120', LINES: '40' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  const waiters: Array<() => void> = [];
  const onData = (chunk: Buffer) => {
    screen += chunk.toString('utf8');
    for (const wake of waiters.splice(0)) wake();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  void done.then(() => clearTimeout(killer));
  return {
    screen: () => screen,
    async waitFor(pattern) {
      while (!pattern.test(screen)) {
        const closed = await Promise.race([
          new Promise<boolean>((resolve) => waiters.push(() => resolve(false))),
          done.then(() => true),
        ]);
        if (closed && !pattern.test(screen))
          throw new Error(`the terminal never showed ${pattern}; it showed:\n${screen}`);
      }
    },
    type(text) {
      child.stdin.write(text);
    },
    done,
  };
}

export const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
