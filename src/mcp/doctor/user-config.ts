// Whose an entry is follows from where its file is, never from the scope it was read as: `--config` can give a
// cloned project's file any scope (docs/security.md, "Project entries are not run unasked").
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { allClients, CLIENTS } from '../clients/table.js';
import type { ClientEnv, ClientId, ClientSpec } from '../types.js';

/** Where `mcp install --scope user` writes for this HOME and environment, with the places other versions read. */
export function userConfigPaths(client: ClientSpec, env: ClientEnv): string[] {
  if (!client.scopes.includes('user')) return [];
  const versions = client.versions ?? [];
  return [client.configPath(env, 'user'), ...versions.map((version) => version.configPath(env, 'user'))];
}

const realOrNone = (file: string): Promise<string | undefined> => realpath(file).catch(() => undefined);

const isInside = (dir: string, file: string): boolean => {
  const relative = path.relative(dir, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

/**
 * A link at the user-scope path counts (a dotfiles folder) unless it leads into the project: the user-scope file
 * must not be the project's own. A file of no known client (`--config` without `--client`) counts when it is any
 * client's user-scope file.
 */
export async function isUserConfigFile(file: string, client: ClientId | null, env: ClientEnv): Promise<boolean> {
  const real = await realOrNone(file);
  if (real === undefined) return false;
  const project = (await realOrNone(env.projectDir)) ?? path.resolve(env.projectDir);
  const clients = client === null ? allClients() : [CLIENTS[client]];
  for (const place of new Set(clients.flatMap((spec) => userConfigPaths(spec, env)))) {
    const info = await lstat(place).catch(() => undefined);
    if (info === undefined || (info.isSymbolicLink() && isInside(project, real))) continue;
    if ((await realOrNone(place)) === real) return true;
  }
  return false;
}
