// Facts and sources: docs/clients-editors.md.
import type { ClientSpec } from '../types.js';
import { join, projectFile, underKey } from './paths.js';

/** Unapproved ${VAR}s stay literal, so mcp-remote's own ${VAR} header arguments reach it unexpanded. */
export const kiro: ClientSpec = {
  id: 'kiro',
  label: 'Kiro',
  format: 'json',
  scopes: ['user', 'project'],
  configPath: (env, scope) =>
    scope === 'project'
      ? projectFile(env, '.kiro', 'settings', 'mcp.json')
      : join(env, env.homeDir, '.kiro', 'settings', 'mcp.json'),
  ...underKey('mcpServers'),
  variables: 'dollar-brace',
  expandsInArgs: true,
  keepsUnsetReferences: true,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: (env) => join(env, env.homeDir, '.kiro'),
  afterChangeNote: () =>
    'Kiro reconnects when its mcp.json is saved; check the server in the MCP Servers tab of the Kiro panel.',
  shape: { remote: { urlField: 'url' } },
  guiApp: true,
  startPath: 'login-shell',
  extraNotes: (request) =>
    request.secrets === 'ref'
      ? [
          'Kiro expands ${VAR} only for approved variables: approve them in the popup Kiro shows, or add them to "Mcp Approved Env Vars" in its settings.',
        ]
      : [],
  doctor: { disabledHint: ', or switch it on in the MCP Servers tab of the Kiro panel' },
};
