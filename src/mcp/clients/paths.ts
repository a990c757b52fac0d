/**
 * Per-OS path helpers for the client table. Every path is computed from a
 * ClientEnv with path.posix or path.win32 chosen by its platform, so Windows
 * paths come out right (and can be golden-tested) on Linux.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ClientEnv, ClientSpec, FsProbe, OsFamily } from '../types.js';

export function osFamily(platform: NodeJS.Platform): OsFamily {
  if (platform === 'win32' || platform === 'darwin') return platform;
  return 'linux';
}

export function pathApi(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

export function join(env: ClientEnv, ...parts: string[]): string {
  return pathApi(env.platform).join(...parts);
}

/** An absolute path for the platform (project folders given as relative paths). */
export function resolveFor(env: ClientEnv, ...parts: string[]): string {
  return pathApi(env.platform).resolve(...parts);
}

const realFs: FsProbe = {
  exists: (p) => existsSync(p),
  list: (p) => {
    try {
      return readdirSync(p);
    } catch {
      return [];
    }
  },
  readText: (p) => {
    try {
      return readFileSync(p, 'utf8');
    } catch {
      return undefined;
    }
  },
};

export function probe(env: ClientEnv): FsProbe {
  return env.fs ?? realFs;
}

/** A variable only counts when it is set and not empty. */
function envValue(env: ClientEnv, name: string): string | undefined {
  const value = env.env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** $XDG_CONFIG_HOME, default ~/.config (Linux; also used by some tools on macOS). */
export function xdgConfigHome(env: ClientEnv): string {
  return envValue(env, 'XDG_CONFIG_HOME') ?? join(env, env.homeDir, '.config');
}

/** %APPDATA% (Roaming), default <home>\AppData\Roaming. */
export function appData(env: ClientEnv): string {
  return envValue(env, 'APPDATA') ?? join(env, env.homeDir, 'AppData', 'Roaming');
}

/** %LOCALAPPDATA%, default <home>\AppData\Local. */
export function localAppData(env: ClientEnv): string {
  return envValue(env, 'LOCALAPPDATA') ?? join(env, env.homeDir, 'AppData', 'Local');
}

/**
 * The per-user application-data folder of an Electron app: ~/Library/Application
 * Support/<app> on macOS, $XDG_CONFIG_HOME/<app> on Linux, %APPDATA%\<app> on Windows.
 */
export function appSupportDir(env: ClientEnv, app: string): string {
  switch (osFamily(env.platform)) {
    case 'darwin':
      return join(env, env.homeDir, 'Library', 'Application Support', app);
    case 'win32':
      return join(env, appData(env), app);
    default:
      return join(env, xdgConfigHome(env), app);
  }
}

/** VS Code's user folder (default profile): <app data>/Code/User. */
export function vscodeUserDir(env: ClientEnv): string {
  return join(env, appSupportDir(env, 'Code'), 'User');
}

export function envOr(env: ClientEnv, name: string, fallback: string): string {
  return envValue(env, name) ?? fallback;
}

/** A file under the project folder (project and local scopes). */
export function projectFile(env: ClientEnv, ...parts: string[]): string {
  return join(env, resolveFor(env, env.projectDir), ...parts);
}

/** Entries as members of one top-level object (`mcpServers`, `servers`, `mcp`, `amp.mcpServers`) in every scope. */
export const underKey = (key: string): Pick<ClientSpec, 'entryPath' | 'serversPath'> => ({ entryPath: (name) => [key, name], serversPath: () => [key] });
