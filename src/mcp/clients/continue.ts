/**
 * Continue (VS Code and JetBrains extensions, and the `cn` CLI) — sources in
 * docs/clients-editors.md ("Continue"):
 * - File: config.yaml in Continue's global folder (continuedev/continue
 *   core/util/paths.ts getConfigYamlPath), `$CONTINUE_GLOBAL_DIR` when set,
 *   else ~/.continue on every OS. One scope: a project's servers are separate
 *   block files (.continue/mcpServers/*.yaml), not handled.
 * - Format: YAML with `name` and `version` required at the top, `schema: v1`
 *   optional (packages/config-yaml/src/schemas/index.ts); `mcpServers` is a
 *   list of items found by `name` (render/continue.ts).
 * - Variables: Continue's templates are `${{ secrets.NAME }}` (its own secret
 *   stores and .env files), not environment variables: values are literal, or
 *   proxy mode.
 */
import { continueLocal, continueProxy, continueRemote } from '../render/continue.js';
import type { ClientEnv, ClientSpec } from '../types.js';
import { envOr, join, resolveFor, underKey } from './paths.js';

/** Continue's global folder: $CONTINUE_GLOBAL_DIR, else ~/.continue. */
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
  afterChangeNote: () => "Continue reloads config.yaml when it is saved; if the server does not show in Continue's MCP tools, reload the editor window (or start `cn` again).",
  shape: { stdioFields: { type: 'stdio' }, remote: { urlField: 'url', fields: { type: 'streamable-http' } } },
  renderer: { local: continueLocal, remote: continueRemote, proxy: continueProxy },
  guiApp: true,
};
