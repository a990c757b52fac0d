// Facts and sources: docs/clients-editors.md.
import { codexBearerVariable } from '../render/codex.js';
import { gooseKey, gooseLocal, gooseProxy, gooseRemote, gooseStdio } from '../render/goose.js';
import type { ClientEnv, ClientSpec } from '../types.js';
import { appData, envOr, join, osFamily, pathApi } from './paths.js';

/** Goose's own order (block/goose paths.rs, etcetera's Xdg strategy): an absolute GOOSE_PATH_ROOT, then an absolute
 * XDG_CONFIG_HOME (macOS too: Goose picks the XDG strategy there), else the default; a relative value is ignored by
 * Goose, so by svcctl too. */
export function gooseConfigDir(env: ClientEnv): string {
  const absolute = (name: string): string | undefined => {
    const value = envOr(env, name, '');
    return value !== '' && pathApi(env.platform).isAbsolute(value) ? value : undefined;
  };
  const root = absolute('GOOSE_PATH_ROOT');
  if (root !== undefined) return join(env, root, 'config');
  if (osFamily(env.platform) === 'win32') return join(env, appData(env), 'Block', 'goose', 'config');
  return join(env, absolute('XDG_CONFIG_HOME') ?? join(env, env.homeDir, '.config'), 'goose');
}

/** Goose spawns through tokio's Command, which does not find npx.cmd by PATHEXT (as for Codex): `cmd /c npx`. */
export const goose: ClientSpec = {
  id: 'goose',
  label: 'Goose',
  format: 'yaml',
  scopes: ['user'],
  configPath: (env) => join(env, gooseConfigDir(env), 'config.yaml'),
  entryPath: (name) => ['extensions', gooseKey(name)],
  serversPath: () => ['extensions'],
  variables: 'none',
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: gooseConfigDir,
  afterChangeNote: () => 'Start a new Goose session (CLI or Desktop); the extension is loaded when the session starts.',
  shape: { remote: { urlField: 'uri' } },
  renderer: {
    local: gooseLocal,
    remote: gooseRemote,
    proxy: gooseProxy,
    proxyTokenVariable: codexBearerVariable,
    stdio: gooseStdio,
  },
  forwardsByName: true,
  guiApp: true,
  // No startPath: Goose drops PATH from an extension's envs and starts it with a PATH of its own (docs/mcp-gui.md).
  extraNotes: (request) =>
    request.secrets === 'ref'
      ? [
          'Goose reads the variables named in env_keys from its environment, then from its keyring (goose configure); a missing one stops the extension from loading.',
        ]
      : [],
  doctor: { disabledHint: ', or set enabled: true (goose configure → Toggle Extensions)' },
};
