// Facts and sources: docs/clients-editors.md ("Extension clients in every VS Code host").
import type { ClientEnv, ClientVersion, EditorHost, Scope } from '../types.js';
import { appSupportDir, join, probe } from './paths.js';
import { currentPath } from './versions.js';

/**
 * An extension's global storage is `<user data>/User/globalStorage/<publisher.name>` in whichever app of the VS Code
 * family runs it, and each app has its own user data folder, `<app data>/<productName>`.
 */
export const EDITOR_HOSTS: readonly EditorHost[] = [
  { folder: 'Code', label: 'VS Code' },
  { folder: 'Code - Insiders', label: 'VS Code Insiders' },
  { folder: 'Cursor', label: 'Cursor' },
  { folder: 'Windsurf', label: 'Windsurf' },
  { folder: 'VSCodium', label: 'VSCodium' },
];

export const hostLabel = (folder: string): string =>
  EDITOR_HOSTS.find((host) => host.folder === folder)?.label ?? folder;

export interface ExtensionHosts {
  /** The host env.editorHost names, else the first that has the extension, else VS Code. */
  configPath(env: ClientEnv, scope: Scope): string;
  storageDir(env: ClientEnv): string;
  versions: readonly ClientVersion[];
  hostsWithExtension(env: ClientEnv): EditorHost[];
}

/** `settings` is the file under the storage folder; `projectFile` the client's file of a project, if it has one. */
export function extensionHosts(
  clientLabel: string,
  extensionId: string,
  settings: string[],
  projectFile?: (env: ClientEnv) => string,
): ExtensionHosts {
  const storage = (env: ClientEnv, folder: string): string =>
    join(env, appSupportDir(env, folder), 'User', 'globalStorage', extensionId);
  const inHost = (host: EditorHost): ClientVersion => ({
    label: `${clientLabel} in ${host.label}`,
    configPath: (env, scope) =>
      scope === 'project' && projectFile ? projectFile(env) : join(env, storage(env, host.folder), ...settings),
    installed: (env) => probe(env).exists(storage(env, host.folder)),
  });
  const versions = EDITOR_HOSTS.map(inHost);
  const chosen = (env: ClientEnv): ClientVersion | undefined => {
    const index = EDITOR_HOSTS.findIndex((host) => host.folder === env.editorHost);
    return index < 0 ? undefined : versions[index];
  };
  return {
    configPath: (env, scope) => chosen(env)?.configPath(env, scope) ?? currentPath(versions, env, scope),
    storageDir: (env) => {
      const installed = EDITOR_HOSTS.find((host) => probe(env).exists(storage(env, host.folder)));
      return storage(env, env.editorHost ?? installed?.folder ?? 'Code');
    },
    versions,
    hostsWithExtension: (env) => EDITOR_HOSTS.filter((host) => probe(env).exists(storage(env, host.folder))),
  };
}
