// Facts and sources: docs/clients-agents.md.
import type { ClientEnv, ClientSpec, ClientAddCommand, EntryRequest, RenderedEntry } from '../types.js';
import { join, osFamily, projectFile, underKey, xdgConfigHome } from './paths.js';
import { line, strings, pairs, type Entry } from './add-command-helpers.js';

/** Amp reads $XDG_CONFIG_HOME/amp when it is set (seen on Linux); the manual gives %USERPROFILE%\.config\amp on Windows. */
const ampDir = (env: ClientEnv): string =>
  osFamily(env.platform) === 'win32' ? join(env, env.homeDir, '.config', 'amp') : join(env, xdgConfigHome(env), 'amp');

export const amp: ClientSpec = {
  id: 'amp',
  label: 'Amp',
  format: 'jsonc',
  scopes: ['user', 'project'],
  configPath: (env, scope) =>
    scope === 'project' ? projectFile(env, '.amp', 'settings.json') : join(env, ampDir(env), 'settings.json'),
  // A flat key with a dot in it, not nested (what `amp mcp add` writes).
  ...underKey('amp.mcpServers'),
  variables: 'dollar-brace',
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: ampDir,
  afterChangeNote: (scope) =>
    scope === 'project'
      ? 'Approve the workspace server with `amp mcp approve <name>`, then start a new Amp thread; `amp mcp list` shows it.'
      : 'Start a new Amp thread; `amp mcp list` shows the server.',
  // No type field: Amp picks Streamable HTTP or SSE itself.
  shape: { remote: { urlField: 'url' } },
  addCommand: ampAddCommand,
};

export function ampAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientAddCommand {
  const entry = rendered.value as Entry;
  const workspace = request.scope === 'project' ? ['--workspace'] : [];
  const notes = request.scope === 'project' ? [`Then approve it: amp mcp approve ${request.name}`] : [];
  if (typeof entry.url === 'string') {
    return line(
      request,
      [
        'amp',
        'mcp',
        'add',
        request.name,
        ...workspace,
        ...pairs(entry.headers, '=').flatMap((header) => ['--header', header]),
        entry.url,
      ],
      notes,
    );
  }
  const env = pairs(entry.env, '=').flatMap((variable) => ['--env', variable]);
  return line(
    request,
    ['amp', 'mcp', 'add', request.name, ...workspace, ...env, '--', String(entry.command), ...strings(entry.args)],
    notes,
  );
}
