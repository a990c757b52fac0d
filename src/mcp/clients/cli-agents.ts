/**
 * Terminal agents: Codex CLI (TOML) and Gemini CLI (reference §A.1, §A.2).
 */
import type { ClientEnv, ClientSpec } from '../types.js';
import { envOr, join, resolveFor } from './paths.js';

/** $CODEX_HOME, default ~/.codex. */
export function codexHome(env: ClientEnv): string {
  return envOr(env, 'CODEX_HOME', join(env, env.homeDir, '.codex'));
}

export const codex: ClientSpec = {
  id: 'codex',
  label: 'Codex CLI',
  format: 'toml',
  scopes: ['user', 'project'],
  // Project config is read only for projects the user marked as trusted.
  configPath: (env, scope) =>
    scope === 'project' ? join(env, resolveFor(env, env.projectDir), '.codex', 'config.toml') : join(env, codexHome(env), 'config.toml'),
  entryPath: (name) => ['mcp_servers', name],
  serversPath: () => ['mcp_servers'],
  // Codex never expands ${VAR}; it forwards variables by name (env_vars,
  // env_http_headers, bearer_token_env_var), which render-*.ts uses instead.
  variables: 'none',
  expandsInArgs: false,
  remoteInFile: true,
  // Rust's Command ignores PATHEXT: npx.cmd is "program not found" without cmd /c.
  windowsCmdWrap: true,
  detectPath: codexHome,
  afterChangeNote: (scope) =>
    scope === 'project'
      ? 'Start a new Codex session in the project (project config is read only for trusted projects); /mcp lists the servers.'
      : 'Start a new Codex session; /mcp lists the servers.',
};

export const gemini: ClientSpec = {
  id: 'gemini',
  label: 'Gemini CLI',
  format: 'jsonc',
  scopes: ['user', 'project'],
  configPath: (env, scope) =>
    scope === 'project'
      ? join(env, resolveFor(env, env.projectDir), '.gemini', 'settings.json')
      : join(env, env.homeDir, '.gemini', 'settings.json'),
  entryPath: (name) => ['mcpServers', name],
  serversPath: () => ['mcpServers'],
  // $VAR, ${VAR}, %VAR% everywhere in settings.json; an unset variable becomes ''.
  variables: 'dollar-brace',
  expandsInArgs: true,
  remoteInFile: true,
  windowsCmdWrap: false,
  detectPath: (env) => join(env, env.homeDir, '.gemini'),
  afterChangeNote: () => 'Start a new Gemini CLI session; /mcp lists the servers.',
};
