// Facts and sources: docs/mcp.md.
import type { ClientSpec } from '../types.js';
import { join, underKey } from './paths.js';

export const windsurf: ClientSpec = {
  id: 'windsurf',
  label: 'Windsurf',
  format: 'json',
  scopes: ['user'],
  configPath: (env) => join(env, env.homeDir, '.codeium', 'windsurf', 'mcp_config.json'),
  ...underKey('mcpServers'),
  variables: 'env-colon',
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: (env) => join(env, env.homeDir, '.codeium', 'windsurf'),
  afterChangeNote: () => 'In Windsurf open the MCP panel of Cascade and press refresh.',
  shape: { remote: { urlField: 'serverUrl' } },
  guiApp: true,
  startPath: 'login-shell',
};
