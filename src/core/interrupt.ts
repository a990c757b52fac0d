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
