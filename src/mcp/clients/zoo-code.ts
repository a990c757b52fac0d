// Facts and sources: docs/clients-editors.md (the community continuation of Roo Code).
import type { ClientEnv, ClientSpec } from '../types.js';
import { join, underKey, vscodeUserDir } from './paths.js';
import { rooCode } from './roo-code.js';

export function zooStorageDir(env: ClientEnv): string {
  return join(env, vscodeUserDir(env), 'globalStorage', 'zoocodeorganization.zoo-code');
}

export const zooCode: ClientSpec = {
  ...rooCode,
  id: 'zoo-code',
  label: 'Zoo Code',
  scopes: ['user'],
  configPath: (env) => join(env, zooStorageDir(env), 'settings', 'mcp_settings.json'),
  ...underKey('mcpServers'),
  detectPath: zooStorageDir,
  afterChangeNote: () =>
    "Zoo Code watches its MCP settings file and reconnects by itself; check the server in Zoo Code's MCP Servers view.",
  doctor: { disabledHint: ", or switch it on in Zoo Code's MCP Servers view" },
  discontinued: undefined,
};
