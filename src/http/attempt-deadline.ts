// Connect, send, headers and the whole body share one deadline; the phase reached names the slow part in the error.

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

/** code ETIMEDOUT: retried like any timeout, exit 6 at the end. */
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
  reached(phase: AttemptPhase): void;
  clear(): void;
  readonly error: DeadlineExceeded | undefined;
}

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

// One timer for all deadlines, set for the earliest: an attempt costs two list links, not a timer (BENCHMARKS.md).
// Linked through the deadlines, not a Set: with a Set, requests outlived V8's young generation (13 full GCs instead of
// 3 per 50,000 events; cause unknown: BENCHMARKS.md, batch profiles of 2026-11-24).
let first: Deadline | undefined;
let last: Deadline | undefined;

/** Where deadlines read the time (ms) and set their one timer: the system's, or a test's that moves time. */
export interface DeadlineClock {
  now(): number;
  setTimer(fire: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
}

const systemClock: DeadlineClock = {
  // Not the global `performance`: it would load perf_hooks, ~2 ms of start-up.
  now: () => Number(process.hrtime.bigint()) / 1e6,
  setTimer: (fire, ms) => setTimeout(fire, ms),
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
let clock = systemClock;
const now = (): number => clock.now();
let timer: unknown;
let timerAt = Infinity;

/** Swaps the clock while no attempt runs (a deadline keeps the clock it started on); returns how to put it back. */
export function useDeadlineClock(next: DeadlineClock): () => void {
  const swap = (to: DeadlineClock): void => {
    if (first) throw new Error('an attempt deadline is running: the clock cannot change under it');
    clock = to;
  };
  swap(next);
  return () => swap(systemClock);
}

/** The part each running attempt has reached, oldest first: a test moves its clock once they reached the part it tests. */
export function runningPhases(): AttemptPhase[] {
  const phases: AttemptPhase[] = [];
  for (let deadline = first; deadline; deadline = deadline.next) phases.push(deadline.phase);
  return phases;
}

function link(deadline: Deadline): void {
  deadline.previous = last;
  if (last) last.next = deadline;
  else first = deadline;
  last = deadline;
}

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
  if (timer) clock.clearTimer(timer);
  timerAt = at;
  timer = clock.setTimer(fire, Math.max(0, at - now()));
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
  clock.clearTimer(timer);
  timer = undefined;
  timerAt = Infinity;
}

/** `onExpire` must abort the attempt. */
export function startDeadline(
  timeoutMs: number,
  onExpire: (error: DeadlineExceeded) => void,
  phase: AttemptPhase = 'connect',
): AttemptDeadline {
  const deadline = new Deadline(now() + timeoutMs, timeoutMs, onExpire, phase);
  link(deadline);
  if (deadline.expiresAt < timerAt) schedule(deadline.expiresAt);
  return deadline;
}
