/**
 * Ctrl+C and SIGTERM. By default a signal ends svcctl at once (exit 130, or
 * 143 for SIGTERM). Work that must not lose anything (a batch with
 * --failed-out) registers a handler: the first signal then asks it to wind
 * down, and a second signal ends svcctl at once.
 */
const handlers = new Set<() => void>();
let signals = 0;

export function onInterrupt(handler: () => void): () => void {
  handlers.add(handler);
  return () => handlers.delete(handler);
}

/** Called on a signal: true when a registered handler took over. */
export function interruptHandled(): boolean {
  signals++;
  if (signals > 1 || handlers.size === 0) return false;
  for (const handler of handlers) handler();
  return true;
}
