/**
 * Zoo Code: its row of the client table. Facts and sources: docs/clients-editors.md.
 * The community continuation of Roo Code (a VS Code extension, id ZooCodeOrganization.zoo-code),
 * which kept Roo Code's MCP settings: <VS Code user dir>/globalStorage/zoocodeorganization.zoo-code/
 * settings/mcp_settings.json (VS Code lower-cases the folder), key `mcpServers`, remote entries with
 * `type: "streamable-http"`, ${env:VAR} references. Sources: hi-godot/godot-ai pull request 654
 * (2026-07-10, the id checked in Zoo-Code's src/package.json), breaking-brake/cc-wf-studio pull
 * request 801 (2026-06-11), Piebald-AI/splitrail pull request 205 (2026-07-19). One scope: no source
 * names a project file of Zoo Code's own.
 */
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
  afterChangeNote: () => "Zoo Code watches its MCP settings file and reconnects by itself; check the server in Zoo Code's MCP Servers view.",
  doctor: { disabledHint: ", or switch it on in Zoo Code's MCP Servers view" },
  discontinued: undefined,
};
