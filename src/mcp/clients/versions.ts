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
  /** Where the entries are in that file. */
  serversPath: string[];
  /** The version that reads it, for the message ("read only by Antigravity 1"). */
  readBy: string;
  /** The file that is read today instead, and where in it. */
  current: string;
  currentServersPath: string[];
  /** Who reads the current one: "Antigravity 2 and agy". */
  currentReader: string;
}

/** The servers path of the newest installed version: a row's serversPath when its versions differ there. */
export function currentServersPath(versions: readonly ClientVersion[], env: ClientEnv, scope: Scope): string[] {
  return installedVersions(versions, env)[0]!.serversPath?.(scope, env) ?? [];
}

/**
 * Places (a file, and where in it) of versions that are not installed and that no installed version
 * reads, for a scope: an entry found only there will not be loaded.
 */
export function staleFiles(client: ClientSpec, env: ClientEnv, scope: Scope): StaleFile[] {
  if (!client.versions || !client.scopes.includes(scope)) return [];
  const installed = installedVersions(client.versions, env);
  const place = (version: ClientVersion): { file: string; serversPath: string[] } => ({
    file: version.configPath(env, scope),
    serversPath: version.serversPath?.(scope, env) ?? client.serversPath(scope, env),
  });
  const key = (at: { file: string; serversPath: string[] }): string => [at.file, ...at.serversPath].join('\0');
  const read = new Set(installed.map((version) => key(place(version))));
  const current = client.configPath(env, scope);
  const currentServersPath = client.serversPath(scope, env);
  const currentReader = installed[0]!.label;
  const stale = new Map<string, StaleFile>();
  for (const version of client.versions) {
    const at = place(version);
    if (!read.has(key(at)) && !stale.has(key(at))) stale.set(key(at), { ...at, readBy: version.label, current, currentServersPath, currentReader });
  }
  return [...stale.values()];
}

/** Why an entry in a stale place will not be loaded, in words: another file, or another key of the same file. */
export function describeStale(stale: StaleFile, name: string): string {
  const reads = stale.currentReader.includes(' and ') ? 'read' : 'reads';
  if (stale.file === stale.current) {
    return `'${name}' is under \`${stale.serversPath.join('.')}\` of ${stale.file}, where only ${stale.readBy} looked; ${stale.currentReader} ${reads} \`${stale.currentServersPath.join('.')}\``;
  }
  return `'${name}' is in ${stale.file}, which only ${stale.readBy} read; ${stale.currentReader} ${reads} ${stale.current}`;
}
