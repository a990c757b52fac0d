// Facts and sources: docs/clients-editors.md.
import type { ClientSpec } from '../types.js';
import { extensionHosts } from './extension-hosts.js';
import { projectFile, underKey } from './paths.js';

const HOSTS = extensionHosts('Roo Code', 'rooveterinaryinc.roo-cline', ['settings', 'mcp_settings.json'], (env) =>
  projectFile(env, '.roo', 'mcp.json'),
);

/** A plain ${VAR} is left alone (only ${env:VAR}), so mcp-remote's ${VAR} header arguments pass through. */
export const rooCode: ClientSpec = {
  id: 'roo-code',
  label: 'Roo Code',
  format: 'json',
  scopes: ['user', 'project'],
  configPath: HOSTS.configPath,
  versions: HOSTS.versions,
  hostsWithExtension: HOSTS.hostsWithExtension,
  ...underKey('mcpServers'),
  variables: 'env-colon',
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: false,
  detectPath: HOSTS.storageDir,
  afterChangeNote: () =>
    "Roo Code watches its MCP settings files and reconnects by itself; check the server in Roo Code's MCP Servers view.",
  shape: { remote: { urlField: 'url', fields: { type: 'streamable-http' } } },
  guiApp: true,
  startPath: 'login-shell',
  doctor: { disabledHint: ", or switch it on in Roo Code's MCP Servers view" },
  discontinued:
    'Roo Code was shut down on 2026-05-15 (its repository, RooCodeInc/Roo-Code, is archived): the entry works while your copy of the extension runs, but it gets no more updates. Its users moved to Cline (svcctl mcp install --client cline) and to the community fork Zoo Code (--client zoo-code).',
};
