/**
 * Temporary files of safe-write: `.<name>.svcctl-<pid>-<random>.tmp` next to
 * the target (and `.<name>.bak.svcctl-…` for its backup). A run killed between writing one and renaming it leaves it
 * behind; the next run that writes the same file (holding its lock, so no
 * live svcctl is using one) removes those of dead processes and old ones.
 * They never look like a config: the name starts with a dot and ends in .tmp.
 */
import { readdir, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { clearAbandonedLock, isProcessAlive } from './file-lock.js';
import { TEMP_PREFIX as PREFIX, tempPathFor } from './no-follow.js';

export { tempPathFor };

/** A temp file older than this is a leftover even when its pid now belongs to another process. */
const LEFTOVER_AGE_MS = 60_000;

/** Removes leftover temporary files of `target` and of its backup `<target>.bak`; never fails (it is housekeeping). */
export async function removeLeftoverTemps(target: string): Promise<void> {
  const folder = dirname(target);
  const prefixes = [PREFIX(target), PREFIX(`${target}.bak`)];
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return;
  }
  for (const name of names) {
    const prefix = prefixes.find((start) => name.startsWith(start));
    const match = prefix === undefined ? null : /^(\d+)-[0-9a-f]{8}\.tmp$/.exec(name.slice(prefix.length));
    if (!match) continue;
    const pid = Number(match[1]);
    const path = join(folder, name);
    const old = await stat(path).then((info) => Date.now() - info.mtimeMs > LEFTOVER_AGE_MS, () => false);
    if (pid !== process.pid && (old || !isProcessAlive(pid))) await unlink(path).catch(() => undefined);
  }
}

/** After a run that writes nothing: what a killed run left beside `target` (its temp files, its lock) is removed. */
export async function tidyAfterKilledRuns(target: string): Promise<void> {
  await removeLeftoverTemps(target);
  await clearAbandonedLock(target);
}
