/**
 * The deadline of one attempt: connect, send, headers and the complete body
 * must all happen within `timeoutMs`; the deadline is cleared when the attempt
 * ends (one timer serves all the attempts running, see below). The caller
 * tells which part the attempt has reached, so the error says which part was
 * slow. Every request svcctl makes uses this rule
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

/** A deadline waiting in the clock below: a link of its list while it runs. */
class Deadline implements AttemptDeadline {
  phase: AttemptPhase;
  error: DeadlineExceeded | undefined;
  previous: Deadline | undefined;
  next: Deadline | undefined;
  running = true;

  constructor(
    readonly expiresAt: number,
    private readonly timeoutMs: number,
    private readonly onExpire: (error: DeadlineExceeded) => void,
    phase: AttemptPhase,
  ) {
    this.phase = phase;
  }

  reached(phase: AttemptPhase): void {
    this.phase = phase;
  }

  clear(): void {
    forget(this);
  }

  expire(): void {
    this.error = new DeadlineExceeded(this.phase, this.timeoutMs);
    this.onExpire(this.error);
  }
}

/*
 * One timer for all the deadlines running (a batch has one per request in
 * flight): it is set for the earliest one, and moved only when a new deadline
 * is earlier. A deadline that ends in time leaves the timer alone, so an
 * attempt costs two links of a list instead of a timer of its own
 * (BENCHMARKS.md). The list is linked through the deadlines themselves: with
 * a Set of them, requests outlived V8's young-generation collections (3.5× the
 * bytes copied, 13 full collections instead of 3 per 50,000 events; why, inside
 * V8, is not known: BENCHMARKS.md, the batch profiles of 2026-11-24).
 */
let first: Deadline | undefined;
let last: Deadline | undefined;
/** Milliseconds on a monotonic clock (the global `performance` would load perf_hooks: ~2 ms of start-up). */
const now = (): number => Number(process.hrtime.bigint()) / 1e6;
let timer: NodeJS.Timeout | undefined;
let timerAt = Infinity;

function link(deadline: Deadline): void {
  deadline.previous = last;
  if (last) last.next = deadline;
  else first = deadline;
  last = deadline;
}

/** Takes a deadline out of the list; false when it was not in it. */
function unlink(deadline: Deadline): boolean {
  if (!deadline.running) return false;
  deadline.running = false;
  const { previous, next } = deadline;
  if (previous) previous.next = next;
  else first = next;
  if (next) next.previous = previous;
  else last = previous;
  deadline.previous = deadline.next = undefined;
  return true;
}

function schedule(at: number): void {
  if (timer) clearTimeout(timer);
  timerAt = at;
  timer = setTimeout(fire, Math.max(0, at - now()));
}

function fire(): void {
  timer = undefined;
  timerAt = Infinity;
  const time = now();
  const expired: Deadline[] = [];
  let next = Infinity;
  for (let deadline = first; deadline; ) {
    const following = deadline.next;
    if (deadline.expiresAt <= time) {
      unlink(deadline);
      expired.push(deadline);
    } else next = Math.min(next, deadline.expiresAt);
    deadline = following;
  }
  // Expired after the walk: ending an attempt may end others (a pool destroyed).
  for (const deadline of expired) deadline.expire();
  if (next !== Infinity && first && next < timerAt) schedule(next);
}

function forget(deadline: Deadline): void {
  if (!unlink(deadline) || first || !timer) return;
  clearTimeout(timer);
  timer = undefined;
  timerAt = Infinity;
}

/** Starts the deadline of one attempt; `onExpire` must abort the attempt (it is called once). */
export function startDeadline(timeoutMs: number, onExpire: (error: DeadlineExceeded) => void, phase: AttemptPhase = 'connect'): AttemptDeadline {
  const deadline = new Deadline(now() + timeoutMs, timeoutMs, onExpire, phase);
  link(deadline);
  if (deadline.expiresAt < timerAt) schedule(deadline.expiresAt);
  return deadline;
}
