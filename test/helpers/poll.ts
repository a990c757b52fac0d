/**
 * The one way a test waits for something another process or a later tick does: poll a condition, never sleep a fixed
 * time. `check` returns the value waited for, or undefined/false while it is not there yet.
 */
import { readFile } from 'node:fs/promises';

export interface PollOptions {
  /** How long before giving up (ms, real time: this bounds a wait, it is never asserted). */
  withinMs?: number;
  everyMs?: number;
}

export async function pollUntil<T>(
  what: string | (() => string),
  check: () => T | undefined | false | Promise<T | undefined | false>,
  { withinMs = 5000, everyMs = 20 }: PollOptions = {},
): Promise<T> {
  const giveUpAt = Date.now() + withinMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > giveUpAt)
      throw new Error(`never happened within ${withinMs} ms: ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** The event `svcctl dev --events-file FILE` stored under `title` (the file is written a moment after the answer). */
export function storedEvent(eventsFile: string, title: string): Promise<{ title: string; payload: string }> {
  return pollUntil(
    `an event '${title}' in ${eventsFile}`,
    async () =>
      (await readFile(eventsFile, 'utf8').catch(() => ''))
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { event: { title: string; payload: string } }).event)
        .find((event) => event.title === title),
    { everyMs: 100 },
  );
}
