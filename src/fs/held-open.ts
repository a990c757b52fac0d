// Windows refuses to rename over a file another program has open without FILE_SHARE_DELETE (EPERM, EBUSY or
// EACCES), and a client that is running (Claude Desktop, an editor) or a virus scanner may hold its config file for
// a moment or for as long as it runs. A moment is waited out; a program that keeps it open is named.
import { rename as fsRename } from 'node:fs/promises';
import { CliError, ExitCode } from '../core/errors.js';

/** How long a held file is waited for, in all: long enough for a scanner or a client's own save, short enough to ask. */
export const HELD_OPEN_WAIT_MS = 3000;
const FIRST_PAUSE_MS = 50;

export interface HeldOpenOptions {
  /** The program that most likely has the file open ("Claude Desktop"); named in the error. */
  holder?: string;
  /** Test seams: the platform (elsewhere EACCES and EPERM mean permissions, not a holder), the rename to try, and
   * the pause between tries (time moved by the test, not slept). */
  platform?: NodeJS.Platform;
  rename?: (from: string, to: string) => Promise<void>;
  pause?: (ms: number) => Promise<void>;
}

const HELD_CODES = new Set(['EPERM', 'EBUSY', 'EACCES']);

export const isHeldOpenError = (error: unknown): boolean =>
  HELD_CODES.has((error as NodeJS.ErrnoException | undefined)?.code ?? '');

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The pauses between tries: doubling from 50 ms, the last one cut so that they add up to HELD_OPEN_WAIT_MS. */
export function heldOpenPauses(): number[] {
  const pauses: number[] = [];
  let total = 0;
  for (let pause = FIRST_PAUSE_MS; total < HELD_OPEN_WAIT_MS; pause *= 2) {
    const next = Math.min(pause, HELD_OPEN_WAIT_MS - total);
    pauses.push(next);
    total += next;
  }
  return pauses;
}

export class HeldOpenError extends Error {
  constructor(
    readonly path: string,
    override readonly cause: unknown,
  ) {
    super(`${path} is held open`);
  }
}

/** Renames, trying again while the target (or the source) is held open; then throws HeldOpenError. */
export async function renameWhileHeld(from: string, to: string, options: HeldOpenOptions = {}): Promise<void> {
  const rename = options.rename ?? fsRename;
  const pause = options.pause ?? sleep;
  const pauses = heldOpenPauses();
  for (let attempt = 0; ; attempt += 1) {
    try {
      await rename(from, to);
      return;
    } catch (error) {
      if ((options.platform ?? process.platform) !== 'win32' || !isHeldOpenError(error)) throw error;
      if (attempt >= pauses.length) throw new HeldOpenError(to, error);
      await pause(pauses[attempt]!);
    }
  }
}

/** `what` and `outcome` begin and end the sentence: "cannot replace X", "X was not changed". */
export function heldOpenFailure(
  what: string,
  outcome: string,
  error: HeldOpenError,
  holder: string | undefined,
): CliError {
  const seconds = HELD_OPEN_WAIT_MS / 1000;
  const code = (error.cause as NodeJS.ErrnoException | undefined)?.code ?? 'EPERM';
  return new CliError(
    ExitCode.UnsafeConfig,
    `${what}: another program has it open (${code} for ${seconds} s); ${outcome}`,
    {
      hint: holder
        ? `close ${holder} and run the command again`
        : 'close the program that has it open (perhaps the client itself) and run the command again',
      cause: error.cause,
    },
  );
}
