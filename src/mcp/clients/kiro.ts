/**
 * Kiro: its row of the client table, with its own add command or install
 * link and doctor rules where it has them. Facts and sources: docs/clients-editors.md.
 */
import type { ClientSpec } from '../types.js';
import { join, projectFile, underKey } from './paths.js';

/**
 * Kiro — https://kiro.dev/docs/mcp/configuration , https://kiro.dev/docs/mcp/security
 * User: ~/.kiro/settings/mcp.json; workspace: .kiro/settings/mcp.json. Key
 * `mcpServers`; local {command, args, env}, remote {url, headers}. ${VAR} is
 * expanded only for variables the user approved (a security popup, or
 * kiroAgent.mcpApprovedEnvVars); others stay as the literal ${VAR}, so
 * mcp-remote's own ${VAR} header arguments reach it unexpanded.
 * How Kiro spawns on Windows is not documented: `cmd /c npx` works either way.
 */
export const kiro: ClientSpec = {
  id: 'kiro',
  label: 'Kiro',
  format: 'json',
  scopes: ['user', 'project'],
  configPath: (env, scope) =>
    scope === 'project' ? projectFile(env, '.kiro', 'settings', 'mcp.json') : join(env, env.homeDir, '.kiro', 'settings', 'mcp.json'),
  ...underKey('mcpServers'),
  variables: 'dollar-brace',
  expandsInArgs: true,
  keepsUnsetReferences: true,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: (env) => join(env, env.homeDir, '.kiro'),
  afterChangeNote: () => 'Kiro reconnects when its mcp.json is saved; check the server in the MCP Servers tab of the Kiro panel.',
  shape: { remote: { urlField: 'url' } },
  guiApp: true,
  extraNotes: (request) =>
    request.secrets === 'ref'
      ? ['Kiro expands ${VAR} only for approved variables: approve them in the popup Kiro shows, or add them to "Mcp Approved Env Vars" in its settings.']
      : [],
  doctor: { disabledHint: ', or switch it on in the MCP Servers tab of the Kiro panel' },
};
