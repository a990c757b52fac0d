// A run killed between writing a temp file and renaming it leaves it; the next writer, holding the lock, removes it.
import { readdir, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { clearAbandonedLock, isProcessAlive } from './file-lock.js';
import { TEMP_PREFIX as PREFIX, tempPathFor } from './no-follow.js';

export { tempPathFor };

/** A temp file older than this is a leftover even when its pid now belongs to another process. */
const LEFTOVER_AGE_MS = 60_000;

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
    const old = await stat(path).then(
      (info) => Date.now() - info.mtimeMs > LEFTOVER_AGE_MS,
      () => false,
    );
    if (pid !== process.pid && (old || !isProcessAlive(pid))) await unlink(path).catch(() => undefined);
  }
}

export async function tidyAfterKilledRuns(target: string): Promise<void> {
  await removeLeftoverTemps(target);
  await clearAbandonedLock(target);
}
