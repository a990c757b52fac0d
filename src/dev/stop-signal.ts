/**
 * Waiting for Ctrl+C or SIGTERM to stop a long-running command cleanly. The
 * process-wide handlers (which exit at once) are set aside while we wait and
 * put back on the first signal, so a second Ctrl+C still stops at once.
 */
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
export type StopSignal = (typeof SIGNALS)[number];

type Listener = (...args: unknown[]) => void;

export interface SignalSource {
  listeners(event: string): Function[];
  removeAllListeners(event: string): unknown;
  on(event: string, listener: Listener): unknown;
  once(event: string, listener: Listener): unknown;
  off(event: string, listener: Listener): unknown;
}

export function waitForStopSignal(source: SignalSource): { signal: Promise<StopSignal>; dispose(): void } {
  const saved = new Map<StopSignal, Function[]>();
  const handlers = new Map<StopSignal, Listener>();
  let disposed = false;
  const dispose = (): void => {
    if (disposed) return;
    disposed = true;
    for (const name of SIGNALS) {
      source.off(name, handlers.get(name) as Listener);
      for (const listener of saved.get(name) ?? []) source.on(name, listener as Listener);
    }
  };
  const signal = new Promise<StopSignal>((resolve) => {
    for (const name of SIGNALS) {
      saved.set(name, source.listeners(name));
      source.removeAllListeners(name);
      const handler: Listener = () => {
        dispose();
        resolve(name);
      };
      handlers.set(name, handler);
      source.once(name, handler);
    }
  });
  return { signal, dispose };
}
