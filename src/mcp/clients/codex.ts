// Facts and sources: docs/mcp.md.
import { codexBearerVariable, codexLocal, codexProxy, codexRemote } from '../render/codex.js';
import type { ClientEnv, ClientSpec, EntryRequest, RenderedEntry } from '../types.js';
import { envOr, join, projectFile, underKey } from './paths.js';
import { usageError } from '../../core/errors.js';
import { commandLine, expandedAssignment, shellFor, type Arg } from '../render/shell-quote.js';
import { record, strings, type ClientCommand, type Entry } from './add-command-helpers.js';

export function codexHome(env: ClientEnv): string {
  return envOr(env, 'CODEX_HOME', join(env, env.homeDir, '.codex'));
}

export const codex: ClientSpec = {
  id: 'codex',
  label: 'Codex CLI',
  format: 'toml',
  scopes: ['user', 'project'],
  configPath: (env, scope) =>
    scope === 'project' ? projectFile(env, '.codex', 'config.toml') : join(env, codexHome(env), 'config.toml'),
  ...underKey('mcp_servers'),
  // Codex never expands ${VAR}; render/codex.ts forwards variables by name instead.
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
  renderer: {
    local: codexLocal,
    remote: (_client, request) => codexRemote(request),
    proxy: codexProxy,
    proxyTokenVariable: codexBearerVariable,
  },
  // Whether Codex runs the helper through a shell is not documented: the line written reads the same either way.
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

export function codexAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientCommand {
  if (request.scope !== 'user')
    throw usageError(
      '`codex mcp add` writes only the user config ($CODEX_HOME/config.toml)',
      'use svcctl mcp install --client codex --scope project',
    );
  const entry = rendered.value as Entry;
  const shell = shellFor(request);
  const argv: Arg[] = ['codex', 'mcp', 'add', request.name];
  const notes: string[] = [];
  if (typeof entry.url === 'string') {
    if (entry.http_headers_helper !== undefined) {
      throw usageError(
        '`codex mcp add` has no option for http_headers_helper',
        'use svcctl mcp install --client codex (it writes the helper), or --mode proxy',
      );
    }
    if (entry.env_http_headers !== undefined || entry.http_headers !== undefined) {
      throw usageError(
        '`codex mcp add` has no option for request headers, so it cannot add the email and password headers',
        'use svcctl mcp install --client codex (writes env_http_headers), or --auth bearer',
      );
    }
    argv.push('--url', entry.url);
    if (typeof entry.bearer_token_env_var === 'string') argv.push('--bearer-token-env-var', entry.bearer_token_env_var);
  } else {
    for (const [name, value] of Object.entries(record(entry.env))) argv.push('--env', `${name}=${value}`);
    const forwarded = strings(entry.env_vars);
    // `codex mcp add` cannot write env_vars: the shell fills the values in, and they land literally in config.toml.
    for (const variable of forwarded) argv.push('--env', expandedAssignment(variable, shell));
    if (forwarded.length > 0) {
      notes.push(
        `codex mcp add stores ${forwarded.join(' and ')} as literal values in config.toml (taken from your shell when you run it); svcctl mcp install --client codex forwards them by name instead.`,
      );
    }
    argv.push('--', String(entry.command), ...strings(entry.args));
  }
  return { command: commandLine(argv, shell), links: [], notes };
}
