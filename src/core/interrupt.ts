/**
 * Ctrl+C and SIGTERM. By default a signal ends svcctl at once (exit 130, or
 * 143 for SIGTERM). Work that must wind down cleanly (a batch with
 * --failed-out, the `dev` sandbox) registers a handler: the first signal then
 * asks it to wind down (telling it which signal came), and a second signal
 * ends svcctl at once.
 */
export type InterruptSignal = 'SIGINT' | 'SIGTERM';

const handlers = new Set<(signal: InterruptSignal) => void>();
let signals = 0;

export function onInterrupt(handler: (signal: InterruptSignal) => void): () => void {
  handlers.add(handler);
  return () => handlers.delete(handler);
}

/** Called on a signal: true when a registered handler took over. */
export function interruptHandled(signal: InterruptSignal = 'SIGINT'): boolean {
  signals++;
  if (signals > 1 || handlers.size === 0) return false;
  for (const handler of handlers) handler(signal);
  return true;
}
