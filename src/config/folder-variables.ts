// A variable that names a folder (or a file) by a relative path names one inside the current folder: set by a
// project's .envrc, or by HOME='' (relative to nothing), it would make a cloned repository's files the user's own
// config, spool or policy (issue 47). Such a value is ignored, as the XDG Base Directory spec says of XDG_*
// ("If an implementation encounters a relative path in any of these variables it should consider the path invalid
// and ignore it": https://specifications.freedesktop.org/basedir-spec/latest/, read 2026-11-28), and said once.
import path from 'node:path';
import { CliError, ExitCode } from '../core/errors.js';

/** Every variable svcctl reads a folder or a file from (grep `env.` in src/: the clients' homes in docs/clients-*.md). */
export const FOLDER_VARIABLES = [
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'XDG_STATE_HOME',
  'XDG_DATA_HOME',
  'SERVICE_SPOOL_DIR',
  'SVC_SPOOL_DIR',
  'SVCCTL_POLICY_DIR',
  'CODEX_HOME',
  'CLAUDE_CONFIG_DIR',
  'CLINE_DIR',
  'CLINE_DATA_DIR',
  'CLINE_MCP_SETTINGS_PATH',
  'CONTINUE_GLOBAL_DIR',
  'COPILOT_HOME',
  'QWEN_HOME',
  'GOOSE_PATH_ROOT',
  'LMSTUDIO_HOME',
  'KIMI_CODE_HOME',
  'APPDATA',
  'LOCALAPPDATA',
  'USERPROFILE',
  'ProgramFiles',
] as const;

/** Lists of folders: each relative member is dropped, the others kept. */
const FOLDER_LISTS = ['XDG_DATA_DIRS'] as const;

/** `env` without the relative values of FOLDER_VARIABLES (and the relative members of FOLDER_LISTS), and a warning for
 * each one dropped. The same object when nothing is dropped: the usual run copies nothing. */
export function withoutRelativeFolders(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
): { env: NodeJS.ProcessEnv; warnings: string[] } {
  const api = platform === 'win32' ? path.win32 : path.posix;
  const warnings: string[] = [];
  let kept = env;
  const replace = (name: string, value: string | undefined): void => {
    if (kept === env) kept = { ...env };
    if (value === undefined) delete kept[name];
    else kept[name] = value;
  };
  for (const name of FOLDER_VARIABLES) {
    const value = env[name];
    if (value === undefined || value === '' || api.isAbsolute(value)) continue;
    replace(name, undefined);
    warnings.push(`${name}=${JSON.stringify(value)} is not an absolute path: ignored (set it to an absolute path)`);
  }
  for (const name of FOLDER_LISTS) {
    const members = env[name]?.split(api.delimiter).filter(Boolean) ?? [];
    const absolute = members.filter((member) => api.isAbsolute(member));
    if (absolute.length === members.length) continue;
    replace(name, absolute.length === 0 ? undefined : absolute.join(api.delimiter));
    const dropped = members.filter((member) => !api.isAbsolute(member)).map((member) => JSON.stringify(member));
    warnings.push(`${name}: ${dropped.join(', ')} not an absolute path: ignored (set it to absolute paths)`);
  }
  return { env: kept, warnings };
}

/** The home folder: `given` when absolute, else the one the user database names (os.userInfo()), where Node itself
 * looks when HOME is unset, with a warning; neither: exit 7. */
export async function absoluteHome(
  given: string,
  platform: NodeJS.Platform,
): Promise<{ homeDir: string; warning?: string }> {
  const api = platform === 'win32' ? path.win32 : path.posix;
  if (api.isAbsolute(given)) return { homeDir: given };
  let fallback: string | undefined;
  try {
    fallback = (await import('node:os')).userInfo().homedir;
  } catch {
    // no entry for this uid (a container's arbitrary user)
  }
  if (fallback === undefined || !api.isAbsolute(fallback))
    throw new CliError(
      ExitCode.UnsafeConfig,
      `the home folder ${JSON.stringify(given)} (HOME) is not an absolute path, and the user database names none`,
      { hint: 'set HOME to the absolute path of your home folder' },
    );
  return {
    homeDir: fallback,
    warning: `HOME=${JSON.stringify(given)} is not an absolute path: ignored, ${fallback} (the user database's) is used`,
  };
}
