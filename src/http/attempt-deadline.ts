/**
 * The deadline of one attempt: connect, send, headers and the complete body
 * must all happen within `timeoutMs`. One timer per attempt, cleared when the
 * attempt ends; the caller tells which part the attempt has reached, so the
 * error says which part was slow. Every request svcctl makes uses this rule
 * (both transports; reusable by anything else that talks HTTP).
 *
 *   const deadline = startDeadline(timeoutMs, (error) => abortTheRequest(error));
 *   deadline.reached('headers'); ... deadline.clear();
 */

export type AttemptPhase = 'connect' | 'send' | 'headers' | 'body';

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

const SLOW_PART: Record<AttemptPhase, string> = {
  connect: 'could not connect',
  send: 'the service did not take the request',
  headers: "the service did not send the answer's headers",
  body: "the service sent the answer's headers but not its body",
};

/** An attempt that passed its deadline. code ETIMEDOUT: retried like any timeout, exit 6 at the end. */
export class DeadlineExceeded extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(
    readonly phase: AttemptPhase,
    readonly timeoutMs: number,
  ) {
    super(`${SLOW_PART[phase]} within ${seconds(timeoutMs)}`);
  }
}

export interface AttemptDeadline {
  /** The part the attempt is in now (the one named if the deadline passes). */
  reached(phase: AttemptPhase): void;
  /** Stops the timer; call when the attempt ends either way. */
  clear(): void;
  /** Set once the deadline has passed. */
  readonly error: DeadlineExceeded | undefined;
}

/** Starts the deadline of one attempt; `onExpire` must abort the attempt (it is called once). */
export function startDeadline(timeoutMs: number, onExpire: (error: DeadlineExceeded) => void, phase: AttemptPhase = 'connect'): AttemptDeadline {
  let current = phase;
  let error: DeadlineExceeded | undefined;
  const timer = setTimeout(() => {
    error = new DeadlineExceeded(current, timeoutMs);
    onExpire(error);
  }, timeoutMs);
  return {
    reached(next) {
      current = next;
    },
    clear() {
      clearTimeout(timer);
    },
    get error() {
      return error;
    },
  };
}
