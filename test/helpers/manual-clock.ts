/** A clock for attempt deadlines (src/http/attempt-deadline.ts) that moves only when the test moves it. */
import type { DeadlineClock } from '../../src/http/attempt-deadline.js';

export interface ManualClock extends DeadlineClock {
  /** Moves time forward, stopping at each timer due on the way to run it at its own time (timers set meanwhile too). */
  advance(ms: number): void;
  /** Timers set and not yet run or cleared. */
  pending(): number;
}

interface Timer {
  at: number;
  fire: () => void;
}

export function manualClock(): ManualClock {
  let time = 0;
  const timers = new Set<Timer>();
  const nextDue = (until: number): Timer | undefined => {
    let due: Timer | undefined;
    for (const timer of timers) if (timer.at <= until && (!due || timer.at < due.at)) due = timer;
    return due;
  };
  return {
    now: () => time,
    setTimer(fire, ms) {
      const timer = { at: time + ms, fire };
      timers.add(timer);
      return timer;
    },
    clearTimer(timer) {
      timers.delete(timer as Timer);
    },
    advance(ms) {
      const until = time + ms;
      for (let due = nextDue(until); due; due = nextDue(until)) {
        timers.delete(due);
        time = Math.max(time, due.at);
        due.fire();
      }
      time = until;
    },
    pending: () => timers.size,
  };
}
