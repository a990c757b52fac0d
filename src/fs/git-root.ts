/** The git work tree a folder is in, found by reading `.git` upward, never by running git: a project's own git config
 * could run programs (core.fsmonitor), and svcctl runs nothing from a project unasked. Both answers are real paths, as
 * the clients compare them. Sources and what each client uses: docs/mcp.md, "The project folder". */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export interface GitRoots {
  /** The folder holding `.git` (a folder, or a file in a linked work tree): `git rev-parse --show-toplevel`. */
  workTree: string;
  /** For a linked work tree (`git worktree add`), the main work tree's folder; otherwise `workTree`. */
  canonical: string;
}

const real = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

const readTrimmed = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
};

const kindOf = (path: string): 'folder' | 'file' | undefined => {
  try {
    const info = statSync(path);
    return info.isDirectory() ? 'folder' : info.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
};

/** A linked work tree's `.git` file names its git folder, whose `commondir` leads to the main repository's `.git`. */
function canonicalOf(workTree: string, dotGit: string, kind: 'folder' | 'file'): string {
  const gitDir = kind === 'folder' ? dotGit : /^gitdir:\s*(.+)$/.exec(readTrimmed(dotGit) ?? '')?.[1];
  if (gitDir === undefined) return workTree;
  const absolute = resolve(workTree, gitDir);
  const common = readTrimmed(join(absolute, 'commondir'));
  return common === undefined || common === '' ? workTree : real(dirname(resolve(absolute, common)));
}

/** undefined when no folder from `start` up to the file system's root holds a `.git`. */
export function gitRootsOf(start: string): GitRoots | undefined {
  let folder = real(resolve(start));
  for (;;) {
    const dotGit = join(folder, '.git');
    const kind = kindOf(dotGit);
    if (kind !== undefined) return { workTree: folder, canonical: canonicalOf(folder, dotGit, kind) };
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}
