/** A clock for attempt deadlines (src/http/attempt-deadline.ts) that moves only when the test moves it. */
import type { DeadlineClock } from '../../src/http/attempt-deadline.js';

export interface ManualClock extends DeadlineClock {
  /** Moves time forward and runs, in order, every timer now due. */
  advance(ms: number): void;
}

export function manualClock(): ManualClock {
  let time = 0;
  const timers = new Set<{ at: number; fire: () => void }>();
  return {
    now: () => time,
    setTimer(fire, ms) {
      const timer = { at: time + ms, fire };
      timers.add(timer);
      return timer;
    },
    clearTimer(timer) {
      timers.delete(timer as { at: number; fire: () => void });
    },
    advance(ms) {
      time += ms;
      for (const timer of [...timers].sort((a, b) => a.at - b.at)) {
        if (timer.at > time) break;
        timers.delete(timer);
        timer.fire();
      }
    },
  };
}
