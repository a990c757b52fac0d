/**
 * Qwen Code: its row of the client table, with its own add command or install
 * link and doctor rules where it has them. Facts and sources: docs/clients-agents.md.
 */
import type { ClientEnv, ClientSpec, ClientAddCommand, EntryRequest, RenderedEntry } from '../types.js';
import { envOr, join, projectFile, underKey } from './paths.js';
import { type Entry, strings, onlyScopes, line, pairs } from './add-command-helpers.js';

/** $QWEN_HOME, default ~/.qwen (Qwen Code 0.24.4 resolveQwenHome, checked). */
export function qwenHome(env: ClientEnv): string {
  return envOr(env, 'QWEN_HOME', join(env, env.homeDir, '.qwen'));
}

export const qwen: ClientSpec = {
  id: 'qwen',
  label: 'Qwen Code',
  format: 'jsonc',
  scopes: ['user', 'project'],
  configPath: (env, scope) => (scope === 'project' ? projectFile(env, '.qwen', 'settings.json') : join(env, qwenHome(env), 'settings.json')),
  ...underKey('mcpServers'),
  // $VAR and ${VAR} over the whole settings object, args included; no ${VAR:-default}; unset stays as written.
  variables: 'dollar-brace',
  bareVariables: true,
  expandsInArgs: true,
  keepsUnsetReferences: true,
  remoteInFile: true,
  // Not documented for Windows; `cmd /c npx` works whether or not it resolves npx.cmd itself.
  windowsCmdWrap: true,
  detectPath: qwenHome,
  afterChangeNote: (scope) =>
    scope === 'project'
      ? 'Start a new Qwen Code session in the project (project settings load only in a trusted folder); `qwen mcp list` shows the server.'
      : 'Start a new Qwen Code session; `qwen mcp list` shows the server.',
  // Streamable HTTP is `httpUrl`: Qwen Code 0.24.4 lists `url` (even with type "http") as SSE (checked).
  shape: { remote: { urlField: 'httpUrl' } },
  doctor: {
    entryRule: (name, entry, mode, reinstall) =>
      mode === 'remote' && typeof entry.httpUrl !== 'string'
        ? {
            message: `'${name}': Qwen Code reads \`url\` as SSE (whatever \`type\` says), and this server speaks Streamable HTTP`,
            fix: `rename url to httpUrl, or reinstall: ${reinstall(' --mode remote')}`,
          }
        : undefined,
  },
  addCommand: qwenAddCommand,
};

/** `qwen mcp add <name> <commandOrUrl> -s <scope> [-t http] [-H "K: V"]… [-e K=V]… -- <args…>` (positionals first: -e and -H take several values). */
export function qwenAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientAddCommand {
  onlyScopes('qwen', 'qwen', request, ['user', 'project']);
  const entry = rendered.value as Entry;
  if (typeof entry.httpUrl === 'string') {
    const headers = pairs(entry.headers, ': ').flatMap((header) => ['-H', header]);
    return line(request, ['qwen', 'mcp', 'add', request.name, entry.httpUrl, '-s', request.scope, '-t', 'http', ...headers]);
  }
  const env = pairs(entry.env, '=').flatMap((variable) => ['-e', variable]);
  return line(request, ['qwen', 'mcp', 'add', request.name, String(entry.command), '-s', request.scope, ...env, '--', ...strings(entry.args)]);
}
