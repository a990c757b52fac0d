// Facts and sources: docs/clients-agents.md.
import type { ClientEnv, ClientSpec, Scope, ClientAddCommand, EntryRequest, RenderedEntry } from '../types.js';
import { join, projectFile, underKey } from './paths.js';
import { usageError } from '../../core/errors.js';
import { shellFor } from '../render/shell-quote.js';
import { line } from './add-command-helpers.js';

const augmentDir = (env: ClientEnv): string => join(env, env.homeDir, '.augment');

export const auggie: ClientSpec = {
  id: 'auggie',
  label: 'Augment (auggie)',
  format: 'json',
  scopes: ['user', 'project', 'local'],
  configPath: (env, scope: Scope) => {
    if (scope === 'project') return projectFile(env, '.augment', 'settings.json');
    if (scope === 'local') return projectFile(env, '.augment', 'settings.local.json');
    return join(env, augmentDir(env), 'settings.json');
  },
  ...underKey('mcpServers'),
  variables: 'dollar-brace',
  expandsInArgs: true,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: augmentDir,
  afterChangeNote: () => 'Start a new auggie session; `auggie mcp list` shows the server.',
  shape: { stdioFields: { type: 'stdio' }, remote: { urlField: 'url', fields: { type: 'http' } } },
  addCommand: auggieAddCommand,
};

export function auggieAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientAddCommand {
  if (shellFor(request) === 'powershell') {
    throw usageError(
      '`auggie mcp add-json` takes the entry as JSON, whose inner " Windows PowerShell 5.1 strips before auggie sees them',
      'use svcctl mcp install --client auggie, which writes the entry itself',
    );
  }
  const scope = request.scope === 'user' ? [] : [`--${request.scope}`];
  return line(request, ['auggie', 'mcp', 'add-json', request.name, JSON.stringify(rendered.value), ...scope]);
}
