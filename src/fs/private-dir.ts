/**
 * Folders svcctl creates for its files. A folder that will hold a file with
 * literal secrets (mode 0600) is created 0700, whatever the umask: with
 * `umask 000` a plain mkdir gives 0777, and anyone on the machine could then
 * replace the 0600 file inside. Folders that already exist are left as they
 * are (their mode is the user's choice); only the ones created here change.
 */
// node:fs's `promises` is read on first use: loading node:fs/promises costs ~2 ms of every start-up (BENCHMARKS.md).
import { promises as fs } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** A file mode that only its owner can read or write (0600, 0400): its folder should be private too. */
export function isPrivateMode(mode: number | undefined): boolean {
  return mode !== undefined && (mode & 0o077) === 0;
}

/** Creates `path` and its missing parents; with `private`, each created folder is 0700. */
export async function ensureFolder(path: string, options: { private: boolean }): Promise<void> {
  if (!options.private) {
    await fs.mkdir(path, { recursive: true });
    return;
  }
  const first = await fs.mkdir(path, { recursive: true, mode: 0o700 });
  if (first === undefined) return;
  // mkdir's mode is filtered by the umask; set it on every folder created, from the deepest up to the first.
  const top = resolve(first);
  for (let folder = resolve(path); ; folder = dirname(folder)) {
    await fs.chmod(folder, 0o700);
    if (folder === top || dirname(folder) === folder) break;
  }
}
