// npx for a GUI client on Windows, whose PATH (the registry's) svcctl cannot read: which path of npx an entry can
// hold, and the PATH its server needs. Facts and sources: docs/mcp-gui.md, "npx from a version manager".
import { readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { PACKAGE_RUNNER } from '../../core/constants.js';
import { findProgram } from '../../fs/path-search.js';
import type { ClientSpec, RunnerPath } from '../types.js';

export interface RunnerChoice {
  runner?: RunnerPath;
  /** npx was found, but its path is not written: why, for install's note. */
  runnerUnwritten?: string;
}

type Where = { env: NodeJS.ProcessEnv; cwd: string };

const envValue = (env: NodeJS.ProcessEnv, name: string): string | undefined =>
  Object.entries(env).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];

/** Windows' own folders from `SystemRoot`, first on its default PATH: the client finds `cmd` (the entry's program)
 * with the entry's PATH, and npm runs a package's scripts through cmd.exe. */
export function windowsSystemFolders(env: NodeJS.ProcessEnv): string[] {
  const given = envValue(env, 'SystemRoot');
  const root =
    given !== undefined && /^[A-Za-z]:\\[^\\]/.test(given) && !given.includes(';')
      ? given.replace(/\\+$/, '')
      : 'C:\\Windows';
  return [`${root}\\System32`, root, `${root}\\System32\\Wbem`, `${root}\\System32\\WindowsPowerShell\\v1.0`];
}

/** fnm's per-shell folder (`…\fnm_multishells\<pid>_<ms>_<n>`, a junction made by `fnm env`) is gone with its shell.
 * Only it is resolved: nvm-windows' NVM_SYMLINK is the link `nvm use` re-points, and resolving it would pin one version;
 * Volta's folder and Node's installer folder are no links. */
export function isFnmShellFolder(folder: string, env: NodeJS.ProcessEnv): boolean {
  const parts = (dir: string): string[] =>
    dir
      .toLowerCase()
      .split(/[\\/]+/)
      .filter(Boolean);
  const inside = parts(folder);
  if (inside.includes('fnm_multishells')) return true;
  const shell = parts(envValue(env, 'FNM_MULTISHELL_PATH') ?? '');
  return shell.length > 0 && shell.every((part, index) => inside[index] === part);
}

export async function stableFolder(folder: string, env: NodeJS.ProcessEnv): Promise<string> {
  return isFnmShellFolder(folder, env) ? realpath(folder).catch(() => folder) : folder;
}

/** Why the path cannot follow `cmd /c` (architecture.md "cmd /c"): cmd.exe keeps the quotes Node puts around a path
 * with a space only when no `& < > ( ) @ ^ |` is between them (`cmd /?`); unquoted, these are its own too. `%NAME%`
 * expands, `!` too where delayed expansion is on; cmd.exe splits an unquoted word at `,` `=` `;`, and `;` would split
 * the entry's PATH too. */
export function cmdUnsafePath(file: string, argWords: string[] = []): string | undefined {
  const found = /[&<>()@^|%!;,="]/.exec(file)?.[0];
  if (found !== undefined) return `cmd.exe reads \`${found}\` in that path as its own`;
  // A second quoted argument makes more than two quotes, and cmd.exe then drops the first and the last of the line.
  const quoted = /\s/.test(file) ? argWords.find((word) => /[\s"]/.test(word)) : undefined;
  return quoted === undefined
    ? undefined
    : 'cmd.exe keeps the quotes of a path with a space only when no other argument is quoted, and the package spec or a URL holds a space';
}

/** The lookup appends PATHEXT's extension as PATHEXT spells it (`npx.CMD`); the entry names the file as it is. */
async function nameOnDisk(folder: string, name: string): Promise<string> {
  const names = await readdir(folder).catch(() => []);
  return names.find((entry) => entry.toLowerCase() === name.toLowerCase()) ?? name;
}

/** For a client that starts from the Start menu with the session's PATH and runs npx through `cmd /c`. */
export async function windowsRunnerFor(ctx: Where, client: ClientSpec, argWords: string[]): Promise<RunnerChoice> {
  // A client that spawns without a shell cannot start npx.cmd at all (Node refuses .cmd without one): nothing to add.
  if (client.startPath !== 'session' || !client.windowsCmdWrap) return {};
  const found = await findProgram(PACKAGE_RUNNER, ctx.env, 'win32', ctx.cwd);
  if (found === undefined) return {};
  const folder = await stableFolder(path.win32.dirname(found), ctx.env);
  const command = path.win32.join(folder, await nameOnDisk(folder, path.win32.basename(found)));
  const unsafe = cmdUnsafePath(command, argWords);
  if (unsafe !== undefined)
    return {
      runnerUnwritten: `npx is at ${command}, but the entry runs plain npx: ${client.label} starts it through \`cmd /c\`, and ${unsafe}. ${client.label} then needs npx on the PATH it gets from Windows (the installer's and nvm-windows' folders are on it; fnm's is not).`,
    };
  return { runner: { command, path: [folder, ...windowsSystemFolders(ctx.env)].join(path.win32.delimiter) } };
}
