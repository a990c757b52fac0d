/** Whether a process runs, for tests that start and stop them. */
import { readFileSync } from 'node:fs';

/** A zombie (killed, not yet reaped by its parent or init) counts as gone. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}
