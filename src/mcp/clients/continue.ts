// Facts and sources: docs/clients-editors.md ("Continue"). Its ${{ secrets.NAME }} are not environment variables.
import { continueLocal, continueProxy, continueRemote, continueStdio } from '../render/continue.js';
import type { ClientEnv, ClientSpec } from '../types.js';
import { envOr, join, resolveFor, underKey } from './paths.js';

export function continueDir(env: ClientEnv): string {
  const fromEnv = envOr(env, 'CONTINUE_GLOBAL_DIR', '');
  return fromEnv !== '' ? resolveFor(env, fromEnv) : join(env, env.homeDir, '.continue');
}

export const continueClient: ClientSpec = {
  id: 'continue',
  label: 'Continue',
  format: 'yaml',
  scopes: ['user'],
  configPath: (env) => join(env, continueDir(env), 'config.yaml'),
  ...underKey('mcpServers'),
  namedLists: [['mcpServers']],
  newFileFields: { name: 'Local Config', version: '1.0.0', schema: 'v1' },
  variables: 'none',
  expandsInArgs: false,
  remoteInFile: true,
  // How Continue starts a command on Windows is not documented: `cmd /c npx` works with or without a shell.
  windowsCmdWrap: true,
  detectPath: continueDir,
  afterChangeNote: () =>
    "Continue reloads config.yaml when it is saved; if the server does not show in Continue's MCP tools, reload the editor window (or start `cn` again).",
  shape: { stdioFields: { type: 'stdio' }, remote: { urlField: 'url', fields: { type: 'streamable-http' } } },
  renderer: { local: continueLocal, remote: continueRemote, proxy: continueProxy, stdio: continueStdio },
  guiApp: true,
  startPath: 'login-shell',
};
