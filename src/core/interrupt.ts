// Work that must wind down (a batch with --failed-out, dev) registers a handler; a second signal ends svcctl at once.
export type InterruptSignal = 'SIGINT' | 'SIGTERM';

const handlers = new Set<(signal: InterruptSignal) => void>();
let signals = 0;

export function onInterrupt(handler: (signal: InterruptSignal) => void): () => void {
  handlers.add(handler);
  return () => handlers.delete(handler);
}

export function interruptHandled(signal: InterruptSignal = 'SIGINT'): boolean {
  signals++;
  if (signals > 1 || handlers.size === 0) return false;
  for (const handler of handlers) handler(signal);
  return true;
}

// An open or read that waits in a thread-pool thread (a pipe without its writer yet) is joined by Node's exit, so
// `process.exit()` would wait with it: while one is pending, a signal ends svcctl by the signal itself instead.
let blockingReads = 0;

export async function whileBlocking<T>(work: Promise<T>): Promise<T> {
  blockingReads++;
  try {
    return await work;
  } finally {
    blockingReads--;
  }
}

export const blockedInRead = (): boolean => blockingReads > 0;
