// Facts and sources: docs/clients-editors.md ("GitHub Copilot for Xcode").
import type { ClientEnv, ClientSpec } from '../types.js';
import { join, underKey } from './paths.js';

/** The app builds the path from the home folder itself (MCPConfigView.swift): XDG_CONFIG_HOME does not move it. */
const xcodeCopilotDir = (env: ClientEnv): string => join(env, env.homeDir, '.config', 'github-copilot', 'xcode');

export const xcodeCopilot: ClientSpec = {
  id: 'xcode-copilot',
  label: 'GitHub Copilot for Xcode',
  format: 'json',
  scopes: ['user'],
  configPath: (env) => join(env, xcodeCopilotDir(env), 'mcp.json'),
  ...underKey('servers'),
  // No source says it expands variables in mcp.json: values are written as they are, in a file only you can read.
  variables: 'none',
  expandsInArgs: false,
  remoteInFile: true,
  remoteHeadersUndocumented:
    "Copilot for Xcode keeps a remote server's headers under `requestInit.headers`, a shape svcctl does not write yet",
  // A macOS app: there is no Windows build.
  windowsCmdWrap: false,
  detectPath: xcodeCopilotDir,
  afterChangeNote: () =>
    'Copilot for Xcode watches mcp.json and reloads it within seconds; the server shows in its Tools → MCP tab (Agent mode).',
  shape: { stdioFields: { type: 'stdio' }, remote: { urlField: 'url', fields: { type: 'http' } } },
  guiApp: true,
};
