// Facts and sources: docs/clients-editors.md.
import { codexBearerVariable } from '../render/codex.js';
import { gooseKey, gooseLocal, gooseProxy, gooseRemote } from '../render/goose.js';
import type { ClientEnv, ClientSpec } from '../types.js';
import { appData, join, osFamily } from './paths.js';

export function gooseConfigDir(env: ClientEnv): string {
  return osFamily(env.platform) === 'win32'
    ? join(env, appData(env), 'Block', 'goose', 'config')
    : join(env, env.homeDir, '.config', 'goose');
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
  renderer: { local: gooseLocal, remote: gooseRemote, proxy: gooseProxy, proxyTokenVariable: codexBearerVariable },
  forwardsByName: true,
  guiApp: true,
  startPath: 'session',
  extraNotes: (request) =>
    request.secrets === 'ref'
      ? [
          'Goose reads the variables named in env_keys from its environment, then from its keyring (goose configure); a missing one stops the extension from loading.',
        ]
      : [],
  doctor: { disabledHint: ', or set enabled: true (goose configure → Toggle Extensions)' },
};
