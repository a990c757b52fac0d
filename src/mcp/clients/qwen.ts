// Facts and sources: docs/clients-agents.md.
import type { ClientEnv, ClientSpec, ClientAddCommand, EntryRequest, RenderedEntry } from '../types.js';
import { envOr, join, projectFile, underKey } from './paths.js';
import { type Entry, strings, onlyScopes, line, pairs } from './add-command-helpers.js';

export function qwenHome(env: ClientEnv): string {
  return envOr(env, 'QWEN_HOME', join(env, env.homeDir, '.qwen'));
}

export const qwen: ClientSpec = {
  id: 'qwen',
  label: 'Qwen Code',
  format: 'jsonc',
  scopes: ['user', 'project'],
  configPath: (env, scope) =>
    scope === 'project' ? projectFile(env, '.qwen', 'settings.json') : join(env, qwenHome(env), 'settings.json'),
  ...underKey('mcpServers'),
  variables: 'dollar-brace',
  passesEnvironment: true,
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

/** Positionals first: -e and -H take several values. */
export function qwenAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientAddCommand {
  onlyScopes('qwen', 'qwen', request, ['user', 'project']);
  const entry = rendered.value as Entry;
  if (typeof entry.httpUrl === 'string') {
    const headers = pairs(entry.headers, ': ').flatMap((header) => ['-H', header]);
    return line(request, [
      'qwen',
      'mcp',
      'add',
      request.name,
      entry.httpUrl,
      '-s',
      request.scope,
      '-t',
      'http',
      ...headers,
    ]);
  }
  const env = pairs(entry.env, '=').flatMap((variable) => ['-e', variable]);
  return line(request, [
    'qwen',
    'mcp',
    'add',
    request.name,
    String(entry.command),
    '-s',
    request.scope,
    ...env,
    '--',
    ...strings(entry.args),
  ]);
}
