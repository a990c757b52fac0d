/**
 * Terminal agents: Codex CLI (TOML) and Gemini CLI (reference §A.1, §A.2).
 */
import { codexBearerVariable, codexLocal, codexProxy, codexRemote } from '../render/codex.js';
import type { ClientEnv, ClientSpec } from '../types.js';
import { codexAddCommand, geminiAddCommand } from './add-commands.js';
import { envOr, join, probe, projectFile, underKey } from './paths.js';

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
    scope === 'project' ? projectFile(env, '.codex', 'config.toml') : join(env, codexHome(env), 'config.toml'),
  ...underKey('mcp_servers'),
  // Codex never expands ${VAR}; it forwards variables by name (env_vars,
  // env_http_headers, bearer_token_env_var), which render/codex.ts (this row's renderer) writes instead.
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
  shape: { remote: { urlField: 'url' } },
  renderer: { local: codexLocal, remote: (_client, request) => codexRemote(request), proxy: codexProxy, proxyTokenVariable: codexBearerVariable },
  // `http_headers_helper = "<command>"` in a url entry (Codex 0.169.0, checked: `codex mcp get --json` shows it as a
  // string, an array is "invalid type: sequence, expected a string"; its messages say the helper "must output a JSON
  // object of strings", "timed out after 10 seconds", "output exceeds 64 KiB", and that it runs only in the local
  // environment). Used in the wild for `{"Authorization":"Bearer …"}` (e.g. Codex configs printed by MCP installers
  // found by code search). Whether it is run by a shell is not documented: svcctl writes a line that reads the same
  // either way (no quotes, no variables).
  headersCommand: { field: 'http_headers_helper', shell: false, output: 'json-headers', timeoutMs: 10_000, env: {} },
  forwardsByName: true,
  doctor: {
    headersField: 'http_headers',
    entryRule: (name, entry, _mode, reinstall) =>
      Object.hasOwn(entry, 'headers')
        ? {
            message: `'${name}': Codex ignores \`headers\`; use http_headers or env_http_headers`,
            fix: `rename headers to env_http_headers (header → variable name) or http_headers (literal values), or reinstall: ${reinstall(' --mode remote')}`,
          }
        : undefined,
    unexpandedFix: (names, reinstall) =>
      `Codex forwards variables by name: list ${names.join(', ')} in env_vars (local) or env_http_headers / bearer_token_env_var (remote), or reinstall: ${reinstall}`,
  },
  addCommand: codexAddCommand,
};

export const gemini: ClientSpec = {
  id: 'gemini',
  label: 'Gemini CLI',
  format: 'jsonc',
  scopes: ['user', 'project'],
  configPath: (env, scope) =>
    scope === 'project'
      ? projectFile(env, '.gemini', 'settings.json')
      : join(env, env.homeDir, '.gemini', 'settings.json'),
  ...underKey('mcpServers'),
  // $VAR, ${VAR}, %VAR% everywhere in settings.json; an unset variable becomes ''.
  variables: 'dollar-brace',
  expandsInArgs: true,
  remoteInFile: true,
  windowsCmdWrap: false,
  detectPath: (env) => join(env, env.homeDir, '.gemini'),
  afterChangeNote: () => 'Start a new Gemini CLI session; /mcp lists the servers.',
  // What `gemini mcp add -t http` writes.
  shape: { remote: { urlField: 'url', fields: { type: 'http' } } },
  bareVariables: true,
  addCommand: geminiAddCommand,
  // Google moves Gemini CLI users to the Antigravity CLI, agy, which keeps its state in ~/.gemini/antigravity-cli/
  // and reads MCP servers from Antigravity's mcp_config.json, never from settings.json (docs/clients-agents.md).
  replacedBy: { client: 'antigravity', label: "Antigravity's CLI (agy)", installed: (env) => probe(env).exists(join(env, env.homeDir, '.gemini', 'antigravity-cli')) },
};
