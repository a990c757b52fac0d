/**
 * Creates the folder a file is written into (and its parents). The one place
 * svcctl creates folders for the files it writes, so how they are made (a
 * private mode for secret files) is decided here.
 */
import { mkdir } from 'node:fs/promises';

/** `mode` applies to folders that are created (e.g. 0o700 for a folder of secrets); existing ones are left as they are. */
export async function ensureFolder(folder: string, mode?: number): Promise<void> {
  await mkdir(folder, mode === undefined ? { recursive: true } : { recursive: true, mode });
}
