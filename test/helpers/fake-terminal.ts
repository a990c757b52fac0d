/**
 * Runs `main(argv, io)` in the test process with stdin and stderr that say they are terminals, so the
 * prompts (inquirer, on a readline in raw mode) are asked and answered in-process: keys are typed when the
 * screen shows a pattern. One pty test per prompt (helpers/terminal.ts) proves the real terminal.
 */
import { PassThrough } from 'node:stream';
import { main } from '../../src/main.js';
import { BIN, cleanEnv } from './cli-env.js';

export interface TerminalRun {
  code: number | null;
  stdout: string;
  /** Everything the prompts and messages wrote to the terminal (stderr). */
  screen: string;
}

/** [pattern, keys]: when the screen first shows the pattern (after the previous answer), type the keys. */
export type Answer = [RegExp, string];

function terminalStream(): PassThrough & { isTTY: boolean; columns: number; rows: number; setRawMode(): void } {
  const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 120, rows: 40, setRawMode: () => undefined });
  // A process's terminal outlives a prompt that ends its output on Ctrl-C: so does this one.
  stream.end = () => stream;
  return stream;
}

export async function runAtTerminal(
  args: string[],
  options: { home: string; env?: Record<string, string | undefined>; cwd?: string; answers?: Answer[] },
): Promise<TerminalRun> {
  const stdin = terminalStream();
  const stderr = terminalStream();
  const stdout = new PassThrough();
  let screen = '';
  let out = '';
  const answers = [...(options.answers ?? [])];
  let seenUpTo = 0;
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  stderr.on('data', (chunk: Buffer) => {
    screen += chunk.toString('utf8');
    const next = answers[0];
    if (next?.[0].test(screen.slice(seenUpTo))) {
      answers.shift();
      seenUpTo = screen.length;
      // After the prompt has drawn itself: inquirer reads keys only once its readline is listening.
      setImmediate(() => stdin.write(next[1]));
    }
  });
  const code = await main(args, {
    env: cleanEnv(options.home, options.env),
    cwd: options.cwd ?? options.home,
    homeDir: options.home,
    stdin,
    stdout,
    stderr,
    program: { execPath: process.execPath, script: BIN },
  });
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (answers.length > 0) throw new Error(`the screen never showed ${answers[0]![0]}; it showed:\n${screen}`);
  return { code, stdout: out, screen };
}

export const ENTER = '\r';
export const DOWN = '\x1b[B';
export const CTRL_C = '\x03';
