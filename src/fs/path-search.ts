// Not the `which` package (in dist/ through cross-spawn): it reads process.platform, PATH and cwd itself and on Windows
// searches the current folder first, where a cloned project could plant `npx.cmd`. Here all three come from the
// context (nor the `which` program: minimal images lack it).
import { accessSync, constants, existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

export interface SearchPlace {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  cwd: string;
}

function isExecutable(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    if (platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Windows: a name without an extension is tried only with each PATHEXT extension, never bare, as cross-spawn's `which`
 * does (its `getPathInfo`, which 2.0.2): Node's Windows folder holds `npx`, a POSIX shell script for Git Bash, beside
 * `npx.cmd`, and no client runs the former. A name with a PATHEXT extension (`npx.cmd`) is tried as it is. */
function windowsCandidates(base: string, env: NodeJS.ProcessEnv): string[] {
  const pathExt = (env.PATHEXT ?? env.PathExt ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean);
  const ext = path.win32.extname(base).toLowerCase();
  const bare = ext !== '' && pathExt.some((known) => known.toLowerCase() === ext) ? [base] : [];
  return [...bare, ...pathExt.map((known) => `${base}${known}`)];
}

/** Without links: process.cwd() is a real path, while a PATH entry (direnv's PATH_add writes $PWD) or HOME may name the
 * same folder through a link the user cd'ed through, which a comparison of the two strings takes for another folder. As
 * given when no part of it exists, or it is another platform's path (a test's). */
function realFolder(api: path.PlatformPath, folder: string): string {
  const resolved = api.resolve(folder);
  if (api !== path) return resolved;
  // The deepest folder that exists is resolved: one not made yet is still inside the project it will be made in.
  for (let existing = resolved; ; existing = api.dirname(existing)) {
    try {
      return api.join(realpathSync.native(existing), api.relative(existing, resolved));
    } catch {
      if (api.dirname(existing) === existing) return resolved;
    }
  }
}

/** The project svcctl runs in: the nearest folder at or above cwd with a `.git`; none when that folder holds the home
 * folder (a home kept in git), whose tools are the user's own. */
function projectOf({ env, platform, cwd }: SearchPlace): string | undefined {
  const api = platform === 'win32' ? path.win32 : path.posix;
  let root = realFolder(api, cwd);
  while (!existsSync(api.join(root, '.git'))) {
    if (api.dirname(root) === root) return undefined;
    root = api.dirname(root);
  }
  const home = platform === 'win32' ? env.USERPROFILE : env.HOME;
  if (home === undefined || !api.isAbsolute(home)) return root;
  const fromRoot = api.relative(root, realFolder(api, home));
  return fromRoot === '' || (!fromRoot.startsWith('..') && !api.isAbsolute(fromRoot)) ? undefined : root;
}

/** The PATH folders a program is looked for in: the absolute ones outside the current project. A relative entry (`.`,
 * `node_modules/.bin`) or one into the project (direnv's PATH_add) would run, or write into a user-wide entry, a
 * program the cloned repository carries (issue 47). */
export function searchFolders(place: SearchPlace): string[] {
  const { env, platform } = place;
  const api = platform === 'win32' ? path.win32 : path.posix;
  const pathValue = (platform === 'win32' ? (env.PATH ?? env.Path) : env.PATH) ?? '';
  const absolute = pathValue.split(api.delimiter).filter((dir) => dir !== '' && api.isAbsolute(dir));
  const project = absolute.length === 0 ? undefined : projectOf(place);
  if (project === undefined) return absolute;
  return absolute.filter((dir) => {
    const fromProject = api.relative(project, realFolder(api, dir));
    return fromProject.startsWith('..') || api.isAbsolute(fromProject);
  });
}

/** `env` with only the searchFolders on PATH, for a program svcctl starts by name: spawn searches PATH itself, and so
 * does the `#!/usr/bin/env node` line of npx and of the package it starts. */
export function withSearchPath(place: SearchPlace): NodeJS.ProcessEnv {
  const { env, platform } = place;
  const key = platform === 'win32' && env.PATH === undefined && env.Path !== undefined ? 'Path' : 'PATH';
  if (env[key] === undefined) return env;
  const delimiter = platform === 'win32' ? path.win32.delimiter : path.posix.delimiter;
  return { ...env, [key]: searchFolders(place).join(delimiter) };
}

/** Synchronous: `mcp clients` asks many clients in a row, and each answer is a few stat calls. */
export function findProgramSync(program: string, place: SearchPlace): string | undefined {
  const { env, platform, cwd } = place;
  const api = platform === 'win32' ? path.win32 : path.posix;
  const candidates = (base: string): string[] => (platform === 'win32' ? windowsCandidates(base, env) : [base]);
  if (program.includes('/') || (platform === 'win32' && program.includes('\\')))
    return candidates(api.resolve(cwd, program)).find((file) => isExecutable(file, platform));
  for (const dir of searchFolders(place)) {
    const found = candidates(api.join(dir, program)).find((file) => isExecutable(file, platform));
    if (found !== undefined) return found;
  }
  return undefined;
}

export async function findProgram(
  program: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  cwd: string,
): Promise<string | undefined> {
  return findProgramSync(program, { env, platform, cwd });
}
