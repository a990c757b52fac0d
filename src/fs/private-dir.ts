// With umask 000 a plain mkdir gives 0777 and anyone could replace a 0600 file inside: folders for such files are 0700.
// node:fs's `promises` is read on first use: loading node:fs/promises costs ~2 ms of every start-up (BENCHMARKS.md).
import { promises as fs } from 'node:fs';
import { dirname, resolve } from 'node:path';

export function isPrivateMode(mode: number | undefined): boolean {
  return mode !== undefined && (mode & 0o077) === 0;
}

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
