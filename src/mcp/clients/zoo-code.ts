// Facts and sources: docs/clients-editors.md (the community continuation of Roo Code).
import type { ClientSpec } from '../types.js';
import { extensionHosts } from './extension-hosts.js';
import { underKey } from './paths.js';
import { rooCode } from './roo-code.js';

const HOSTS = extensionHosts('Zoo Code', 'zoocodeorganization.zoo-code', ['settings', 'mcp_settings.json']);

export const zooCode: ClientSpec = {
  ...rooCode,
  id: 'zoo-code',
  label: 'Zoo Code',
  scopes: ['user'],
  configPath: HOSTS.configPath,
  versions: HOSTS.versions,
  hostsWithExtension: HOSTS.hostsWithExtension,
  ...underKey('mcpServers'),
  detectPath: HOSTS.storageDir,
  afterChangeNote: () =>
    "Zoo Code watches its MCP settings file and reconnects by itself; check the server in Zoo Code's MCP Servers view.",
  doctor: { disabledHint: ", or switch it on in Zoo Code's MCP Servers view" },
  discontinued: undefined,
};
