/**
 * Clients whose versions read different files (Antigravity 1 read
 * ~/.gemini/antigravity/mcp_config.json, Antigravity 2 and agy read
 * ~/.gemini/config/mcp_config.json). The version installed decides where an
 * entry goes; an entry in a file that no installed version reads is stale:
 * the client will never load it, though svcctl once wrote it there.
 */
import type { ClientEnv, ClientSpec, ClientVersion, Scope } from '../types.js';

/** The versions found on this machine, newest first; none found: the newest known (a new install gets it). */
export function installedVersions(versions: readonly ClientVersion[], env: ClientEnv): ClientVersion[] {
  const found = versions.filter((version) => version.installed(env));
  return found.length > 0 ? found : versions.slice(0, 1);
}

/** The file the newest installed version reads: a row's configPath. */
export function currentPath(versions: readonly ClientVersion[], env: ClientEnv, scope: Scope): string {
  return installedVersions(versions, env)[0]!.configPath(env, scope);
}

export interface StaleFile {
  file: string;
  /** The version that reads it, for the message ("read only by Antigravity 1"). */
  readBy: string;
  /** The file that is read today instead. */
  current: string;
  /** Who reads the current one: "Antigravity 2 and agy". */
  currentReader: string;
}

/** Files of versions that are not installed (and that no installed version reads), for a scope. */
export function staleFiles(client: ClientSpec, env: ClientEnv, scope: Scope): StaleFile[] {
  if (!client.versions || !client.scopes.includes(scope)) return [];
  const installed = installedVersions(client.versions, env);
  const read = new Set(installed.map((version) => version.configPath(env, scope)));
  const current = client.configPath(env, scope);
  const currentReader = installed[0]!.label;
  const stale = new Map<string, StaleFile>();
  for (const version of client.versions) {
    const file = version.configPath(env, scope);
    if (!read.has(file) && !stale.has(file)) stale.set(file, { file, readBy: version.label, current, currentReader });
  }
  return [...stale.values()];
}
