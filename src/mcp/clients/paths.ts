// path.posix or path.win32 by the env's platform, so Windows paths come out right (and golden-tested) on Linux.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { readRegularFileSync } from '../../fs/regular-file.js';
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
      return readRegularFileSync(p).bytes.toString('utf8');
    } catch {
      return undefined;
    }
  },
};

export function probe(env: ClientEnv): FsProbe {
  return env.fs ?? realFs;
}

/** A variable set to '' does not count. */
function envValue(env: ClientEnv, name: string): string | undefined {
  const value = env.env[name];
  return value === undefined || value === '' ? undefined : value;
}

export function xdgConfigHome(env: ClientEnv): string {
  return envValue(env, 'XDG_CONFIG_HOME') ?? join(env, env.homeDir, '.config');
}

export function appData(env: ClientEnv): string {
  return envValue(env, 'APPDATA') ?? join(env, env.homeDir, 'AppData', 'Roaming');
}

export function localAppData(env: ClientEnv): string {
  return envValue(env, 'LOCALAPPDATA') ?? join(env, env.homeDir, 'AppData', 'Local');
}

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

export function vscodeUserDir(env: ClientEnv): string {
  return join(env, appSupportDir(env, 'Code'), 'User');
}

export function envOr(env: ClientEnv, name: string, fallback: string): string {
  return envValue(env, name) ?? fallback;
}

export function projectFile(env: ClientEnv, ...parts: string[]): string {
  return join(env, resolveFor(env, env.projectDir), ...parts);
}

export const underKey = (key: string): Pick<ClientSpec, 'entryPath' | 'serversPath'> => ({
  entryPath: (name) => [key, name],
  serversPath: () => [key],
});
