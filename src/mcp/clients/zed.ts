// Facts and sources: docs/mcp.md.
import type { ClientEnv, ClientSpec } from '../types.js';
import { appData, join, osFamily, projectFile, underKey, xdgConfigHome } from './paths.js';

export function zedConfigDir(env: ClientEnv): string {
  switch (osFamily(env.platform)) {
    case 'win32':
      return join(env, appData(env), 'Zed');
    case 'darwin':
      return join(env, env.homeDir, '.config', 'zed');
    default:
      return join(env, xdgConfigHome(env), 'zed');
  }
}

export const zed: ClientSpec = {
  id: 'zed',
  label: 'Zed',
  format: 'jsonc',
  scopes: ['user', 'project'],
  configPath: (env, scope) =>
    scope === 'project' ? projectFile(env, '.zed', 'settings.json') : join(env, zedConfigDir(env), 'settings.json'),
  ...underKey('context_servers'),
  variables: 'none',
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: false,
  detectPath: zedConfigDir,
  afterChangeNote: () =>
    'Zed reloads settings.json by itself; check the server in the Agent panel settings (Context Servers).',
  shape: { stdioFields: { source: 'custom' }, remote: { urlField: 'url' } },
  guiApp: true,
  startPath: 'login-shell',
};
