// Facts and sources: docs/clients-agents.md ("Kimi CLI and Kimi Code").
import type { ClientEnv, ClientSpec, ClientVersion } from '../types.js';
import { envOr, join, probe, underKey } from './paths.js';
import { currentPath } from './versions.js';

const kimiCliHome = (env: ClientEnv): string => join(env, env.homeDir, '.kimi');
const kimiCodeHome = (env: ClientEnv): string => envOr(env, 'KIMI_CODE_HOME', join(env, env.homeDir, '.kimi-code'));

/** Kimi Code reads its own folder; Kimi CLI, the Python kimi-cli it follows, `~/.kimi`. */
const KIMI_VERSIONS: readonly ClientVersion[] = [
  {
    label: 'Kimi Code',
    configPath: (env) => join(env, kimiCodeHome(env), 'mcp.json'),
    installed: (env) => probe(env).exists(kimiCodeHome(env)),
  },
  {
    label: 'Kimi CLI',
    configPath: (env) => join(env, kimiCliHome(env), 'mcp.json'),
    installed: (env) => probe(env).exists(kimiCliHome(env)),
  },
];

export const kimi: ClientSpec = {
  id: 'kimi',
  label: 'Kimi CLI',
  format: 'json',
  scopes: ['user'],
  versions: KIMI_VERSIONS,
  configPath: (env, scope) => currentPath(KIMI_VERSIONS, env, scope),
  ...underKey('mcpServers'),
  // Neither documents ${VAR} in mcp.json: values are written as they are, in a file only you can read.
  variables: 'none',
  expandsInArgs: false,
  remoteInFile: true,
  // How it starts a stdio server on Windows is not documented; `cmd /c npx` works either way.
  windowsCmdWrap: true,
  detectPath: (env) => (probe(env).exists(kimiCodeHome(env)) ? kimiCodeHome(env) : kimiCliHome(env)),
  afterChangeNote: () => 'Start a new kimi session; `kimi mcp list` (Kimi Code: /mcp) shows the server.',
  // An entry with `url` is HTTP, one with `command` stdio: no type field.
  shape: { remote: { urlField: 'url' } },
};
