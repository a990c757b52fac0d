import type { ClientEnv, ClientSpec, ClientVersion } from '../types.js';
import { currentPath } from './versions.js';
import { join, probe, projectFile, underKey } from './paths.js';

// Facts and sources: docs/clients-editors.md ("Antigravity"); an entry with `type: "stdio"` is dropped without a word.
const unifiedFolder = (env: ClientEnv): string => join(env, env.homeDir, '.gemini', 'config');

const legacyFolder = (env: ClientEnv): string => join(env, env.homeDir, '.gemini', 'antigravity');

const workspaceFile = (env: ClientEnv): string => projectFile(env, '.agents', 'mcp_config.json');

const unifiedInstalled = (env: ClientEnv): boolean => {
  const fs = probe(env);
  return fs.exists(unifiedFolder(env)) || fs.exists(join(env, env.homeDir, '.gemini', 'antigravity-cli'));
};

const ANTIGRAVITY_VERSIONS: readonly ClientVersion[] = [
  {
    label: 'Antigravity 2 and agy',
    configPath: (env, scope) =>
      scope === 'project' ? workspaceFile(env) : join(env, unifiedFolder(env), 'mcp_config.json'),
    installed: unifiedInstalled,
  },
  {
    label: 'Antigravity 1',
    configPath: (env, scope) =>
      scope === 'project' ? workspaceFile(env) : join(env, legacyFolder(env), 'mcp_config.json'),
    installed: (env) => probe(env).exists(legacyFolder(env)) && !unifiedInstalled(env),
  },
];

export const antigravity: ClientSpec = {
  id: 'antigravity',
  label: 'Antigravity',
  format: 'json',
  scopes: ['user', 'project'],
  versions: ANTIGRAVITY_VERSIONS,
  configPath: (env, scope) => currentPath(ANTIGRAVITY_VERSIONS, env, scope),
  ...underKey('mcpServers'),
  variables: 'none',
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: (env) =>
    unifiedInstalled(env) || !probe(env).exists(legacyFolder(env)) ? unifiedFolder(env) : legacyFolder(env),
  afterChangeNote: () =>
    'Quit Antigravity (and agy) completely and start it again; the server shows in the Agent panel under … → MCP Servers (agy: /mcp).',
  shape: { remote: { urlField: 'serverUrl' } },
  guiApp: true,
  startPath: 'login-shell',
  doctor: { disabledHint: ', or switch it on in Antigravity (… → MCP Servers → Manage MCP Servers)' },
};
