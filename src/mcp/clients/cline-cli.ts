// Facts and sources: docs/clients-agents.md.
import type { ClientEnv, ClientSpec } from '../types.js';
import { clineTransport } from './cline.js';
import { envOr, join, underKey } from './paths.js';

/** Cline CLI's order (@cline/shared storage paths): CLINE_MCP_SETTINGS_PATH, then CLINE_DATA_DIR, then CLINE_DIR. */
const clineDir = (env: ClientEnv): string => envOr(env, 'CLINE_DIR', join(env, env.homeDir, '.cline'));
const clineDataDir = (env: ClientEnv): string => envOr(env, 'CLINE_DATA_DIR', join(env, clineDir(env), 'data'));

/** The CLI reads the extension's flat entries (what svcctl writes for Cline) beside its own nested `transport` form,
 * expands no variables, and starts commands through a shell on Windows. */
export const clineCli: ClientSpec = {
  id: 'cline-cli',
  label: 'Cline CLI',
  format: 'json',
  scopes: ['user'],
  configPath: (env) =>
    envOr(env, 'CLINE_MCP_SETTINGS_PATH', join(env, clineDataDir(env), 'settings', 'cline_mcp_settings.json')),
  ...underKey('mcpServers'),
  variables: 'none',
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: false,
  detectPath: clineDir,
  afterChangeNote: () => 'Start a new Cline CLI session (`cline`); MCP servers are read when a session starts.',
  shape: { remote: { urlField: 'url', fields: { type: 'streamableHttp' } } },
  doctor: {
    entryRule: (name, entry, mode, reinstall) =>
      mode === 'remote' ? clineTransport(name, entry, reinstall(' --mode remote')) : undefined,
  },
};
