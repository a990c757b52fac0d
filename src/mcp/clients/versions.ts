// An entry in a place no installed version reads is stale: the client will never load it.
import type { ClientEnv, ClientSpec, ClientVersion, Scope } from '../types.js';

/** None found: the first (a new install gets it). */
export function installedVersions(versions: readonly ClientVersion[], env: ClientEnv): ClientVersion[] {
  const found = versions.filter((version) => version.installed(env));
  return found.length > 0 ? found : versions.slice(0, 1);
}

export function currentPath(versions: readonly ClientVersion[], env: ClientEnv, scope: Scope): string {
  return installedVersions(versions, env)[0]!.configPath(env, scope);
}

export const samePath = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((key, index) => key === b[index]);
const ownPath = (version: ClientVersion, env: ClientEnv, scope: Scope, row: string[] = []): string[] =>
  version.serversPath?.(scope, env) ?? row;
const reads = (
  version: ClientVersion,
  env: ClientEnv,
  scope: Scope,
  path: readonly string[],
  row?: string[],
): boolean =>
  [ownPath(version, env, scope, row), ...(version.alsoReads?.(scope, env) ?? [])].some((read) => samePath(read, path));
const refuses = (version: ClientVersion, env: ClientEnv, scope: Scope, path: readonly string[]): boolean =>
  (version.refuses?.(scope, env) ?? []).some((refused) => samePath(refused, path));

/** A key that makes an older installed version reject the whole file is never written. */
export function currentServersPath(versions: readonly ClientVersion[], env: ClientEnv, scope: Scope): string[] {
  const installed = installedVersions(versions, env);
  const places = installed.map((version) => ownPath(version, env, scope));
  return (
    places.find((path) => installed.every((version) => reads(version, env, scope, path))) ??
    places.find((path) => !installed.some((version) => refuses(version, env, scope, path))) ??
    places[0]!
  );
}

/** An empty nested key means nothing to that version, and an older one may refuse the file over it. */
export function droppedWhenEmpty(client: Pick<ClientSpec, 'versions'>, env: ClientEnv, scope: Scope): string[][] {
  return (client.versions ?? []).map((version) => ownPath(version, env, scope)).filter((path) => path.length > 1);
}

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
      const why =
        refuser === undefined
          ? ''
          : `, and \`${own.join('.')}\` would make ${refuser.label} refuse the whole file${refuser.upgradeNote ? ` (${refuser.upgradeNote})` : ''}`;
      return `${version.label} reads only \`${own.join('.')}\`, not \`${path.join('.')}\`${why}`;
    });
}

export interface StaleFile {
  file: string;
  serversPath: string[];
  readBy: string;
  current: string;
  currentServersPath: string[];
  currentReader: string;
  refusedBy?: string;
}

export interface KnownPlace extends StaleFile {
  stale: boolean;
  redundant: boolean;
}

export function otherPlaces(client: ClientSpec, env: ClientEnv, scope: Scope): KnownPlace[] {
  if (!client.versions || !client.scopes.includes(scope)) return [];
  const installed = installedVersions(client.versions, env);
  const current = client.configPath(env, scope);
  const currentServersPath = client.serversPath(scope, env);
  const readersOf = (file: string, path: readonly string[]): ClientVersion[] =>
    installed.filter(
      (version) => version.configPath(env, scope) === file && reads(version, env, scope, path, currentServersPath),
    );
  const currentReaders = readersOf(current, currentServersPath);
  const currentReader = (currentReaders.length > 0 ? currentReaders : installed.slice(0, 1))
    .map((version) => version.label)
    .join(' and ');
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

export function describeStale(stale: StaleFile & { stale?: boolean }, name: string): string {
  const reads = stale.currentReader.includes(' and ') ? 'read' : 'reads';
  const refused =
    stale.refusedBy === undefined
      ? ''
      : ` (and ${stale.refusedBy} refuses the whole file while \`${stale.serversPath.join('.')}\` is in it)`;
  if (stale.file === stale.current) {
    const looked = stale.stale === false ? '' : `, where only ${stale.readBy} looked`;
    return `'${name}' is under \`${stale.serversPath.join('.')}\` of ${stale.file}${looked}${refused}; ${stale.currentReader} ${reads} \`${stale.currentServersPath.join('.')}\``;
  }
  return `'${name}' is in ${stale.file}, which only ${stale.readBy} read; ${stale.currentReader} ${reads} ${stale.current}`;
}
