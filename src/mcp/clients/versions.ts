/**
 * Clients whose versions read different places: another file (Antigravity 1
 * read ~/.gemini/antigravity/mcp_config.json, Antigravity 2 and agy read
 * ~/.gemini/config/mcp_config.json) or another key of one file (opencode 2
 * reads `mcp.servers`, opencode 1 `mcp`). The versions installed decide where
 * an entry goes; an entry in a place that no installed version reads is
 * stale: the client will never load it, though svcctl once wrote it there.
 */
import type { ClientEnv, ClientSpec, ClientVersion, Scope } from '../types.js';

/** The versions found on this machine, in the row's order (newest first); none found: the first (a new install gets it). */
export function installedVersions(versions: readonly ClientVersion[], env: ClientEnv): ClientVersion[] {
  const found = versions.filter((version) => version.installed(env));
  return found.length > 0 ? found : versions.slice(0, 1);
}

/** The file the newest installed version reads: a row's configPath. */
export function currentPath(versions: readonly ClientVersion[], env: ClientEnv, scope: Scope): string {
  return installedVersions(versions, env)[0]!.configPath(env, scope);
}

/** Two key paths are the same place. */
export const samePath = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((key, index) => key === b[index]);
/** Where a version's entries sit in its file; `row` is the row's own key for versions that share it (Antigravity). */
const ownPath = (version: ClientVersion, env: ClientEnv, scope: Scope, row: string[] = []): string[] => version.serversPath?.(scope, env) ?? row;
const reads = (version: ClientVersion, env: ClientEnv, scope: Scope, path: readonly string[], row?: string[]): boolean =>
  [ownPath(version, env, scope, row), ...(version.alsoReads?.(scope, env) ?? [])].some((read) => samePath(read, path));
const refuses = (version: ClientVersion, env: ClientEnv, scope: Scope, path: readonly string[]): boolean =>
  (version.refuses?.(scope, env) ?? []).some((refused) => samePath(refused, path));

/**
 * Where in its file a row's entries go, for versions that differ in the key (one file): the place of the
 * newest installed version that every installed version reads; when there is none, the newest place that
 * no installed version refuses (a key that makes an older version reject the whole file is never written).
 */
export function currentServersPath(versions: readonly ClientVersion[], env: ClientEnv, scope: Scope): string[] {
  const installed = installedVersions(versions, env);
  const places = installed.map((version) => ownPath(version, env, scope));
  return (
    places.find((path) => installed.every((version) => reads(version, env, scope, path))) ??
    places.find((path) => !installed.some((version) => refuses(version, env, scope, path))) ??
    places[0]!
  );
}

/**
 * Nested servers keys of a version (opencode 2's `mcp.servers`) that an uninstall removes once it leaves
 * them empty: an empty one means nothing to that version, and an older one may refuse the file over it.
 */
export function droppedWhenEmpty(client: Pick<ClientSpec, 'versions'>, env: ClientEnv, scope: Scope): string[][] {
  return (client.versions ?? []).map((version) => ownPath(version, env, scope)).filter((path) => path.length > 1);
}

/** The installed versions that do not read the place a row writes, each with the reason. */
export function unreadBy(client: ClientSpec, env: ClientEnv, scope: Scope): string[] {
  if (!client.versions || !client.scopes.includes(scope)) return [];
  const installed = installedVersions(client.versions, env);
  const file = client.configPath(env, scope);
  const path = client.serversPath(scope, env);
  return installed
    .filter((version) => version.configPath(env, scope) === file && !reads(version, env, scope, path, path))
    .map((version) => {
      const own = ownPath(version, env, scope, path);
      const refuser = installed.find((other) => refuses(other, env, scope, own));
      const why = refuser === undefined ? '' : `, and \`${own.join('.')}\` would make ${refuser.label} refuse the whole file${refuser.upgradeNote ? ` (${refuser.upgradeNote})` : ''}`;
      return `${version.label} reads only \`${own.join('.')}\`, not \`${path.join('.')}\`${why}`;
    });
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
  /** An installed version that refuses the whole file while this key is in it. */
  refusedBy?: string;
}

export interface KnownPlace extends StaleFile {
  /** No installed version reads it: an entry there will not be loaded. */
  stale: boolean;
  /** Every installed version that reads it reads the current place too: an entry there can move. */
  redundant: boolean;
}

/** The places (a file, and where in it) of every known version other than the one a row writes, for a scope. */
export function otherPlaces(client: ClientSpec, env: ClientEnv, scope: Scope): KnownPlace[] {
  if (!client.versions || !client.scopes.includes(scope)) return [];
  const installed = installedVersions(client.versions, env);
  const current = client.configPath(env, scope);
  const currentServersPath = client.serversPath(scope, env);
  const readersOf = (file: string, path: readonly string[]): ClientVersion[] =>
    installed.filter((version) => version.configPath(env, scope) === file && reads(version, env, scope, path, currentServersPath));
  const currentReaders = readersOf(current, currentServersPath);
  const currentReader = (currentReaders.length > 0 ? currentReaders : installed.slice(0, 1)).map((version) => version.label).join(' and ');
  const places = new Map<string, KnownPlace>();
  for (const version of client.versions) {
    const file = version.configPath(env, scope);
    const serversPath = ownPath(version, env, scope, currentServersPath);
    const key = [file, ...serversPath].join('\0');
    if ((file === current && samePath(serversPath, currentServersPath)) || places.has(key)) continue;
    const readers = readersOf(file, serversPath);
    const refuser = file === current ? installed.find((other) => refuses(other, env, scope, serversPath)) : undefined;
    places.set(key, {
      file,
      serversPath,
      readBy: version.label,
      current,
      currentServersPath,
      currentReader,
      ...(refuser ? { refusedBy: refuser.label } : {}),
      stale: readers.length === 0,
      redundant: readers.every((reader) => currentReaders.includes(reader)),
    });
  }
  return [...places.values()];
}

/** Why an entry in another place will not be loaded (or need not stay there), in words: another file, or another key of the same file. */
export function describeStale(stale: StaleFile & { stale?: boolean }, name: string): string {
  const reads = stale.currentReader.includes(' and ') ? 'read' : 'reads';
  const refused = stale.refusedBy === undefined ? '' : ` (and ${stale.refusedBy} refuses the whole file while \`${stale.serversPath.join('.')}\` is in it)`;
  if (stale.file === stale.current) {
    const looked = stale.stale === false ? '' : `, where only ${stale.readBy} looked`;
    return `'${name}' is under \`${stale.serversPath.join('.')}\` of ${stale.file}${looked}${refused}; ${stale.currentReader} ${reads} \`${stale.currentServersPath.join('.')}\``;
  }
  return `'${name}' is in ${stale.file}, which only ${stale.readBy} read; ${stale.currentReader} ${reads} ${stale.current}`;
}
