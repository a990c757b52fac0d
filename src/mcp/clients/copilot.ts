// Facts and sources: docs/clients-agents.md.
import type { ClientEnv, ClientSpec, ClientAddCommand, EntryRequest, RenderedEntry } from '../types.js';
import { envOr, join, projectFile, underKey } from './paths.js';
import { type Entry, strings, onlyScopes, line, pairs } from './add-command-helpers.js';

export function copilotHome(env: ClientEnv): string {
  return envOr(env, 'COPILOT_HOME', join(env, env.homeDir, '.copilot'));
}

export const copilot: ClientSpec = {
  id: 'copilot',
  label: 'GitHub Copilot CLI',
  format: 'json',
  scopes: ['user', 'project'],
  configPath: (env, scope) =>
    scope === 'project' ? projectFile(env, '.github', 'mcp.json') : join(env, copilotHome(env), 'mcp-config.json'),
  ...underKey('mcpServers'),
  variables: 'dollar-brace',
  // Args are not documented as expanded: the mcp-remote headers stay ${NAME}.
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: copilotHome,
  afterChangeNote: (scope) =>
    scope === 'project'
      ? 'Start a new Copilot CLI session in the project and trust the folder when asked (workspace servers load only in trusted folders); /mcp lists the servers.'
      : 'Start a new Copilot CLI session (it reads mcp-config.json at start); `copilot mcp list` shows the server.',
  shape: {
    stdioFields: { type: 'local' },
    trailingFields: { tools: ['*'] },
    remote: { urlField: 'url', fields: { type: 'http' } },
  },
  addCommand: copilotAddCommand,
};

export function copilotAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientAddCommand {
  onlyScopes('copilot', 'copilot', request, ['user']);
  const entry = rendered.value as Entry;
  if (typeof entry.url === 'string') {
    return line(request, [
      'copilot',
      'mcp',
      'add',
      '--transport',
      'http',
      request.name,
      entry.url,
      ...pairs(entry.headers, ': ').flatMap((header) => ['--header', header]),
    ]);
  }
  const env = pairs(entry.env, '=').flatMap((variable) => ['--env', variable]);
  return line(request, [
    'copilot',
    'mcp',
    'add',
    request.name,
    ...env,
    '--',
    String(entry.command),
    ...strings(entry.args),
  ]);
}
