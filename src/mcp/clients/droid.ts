// Facts and sources: docs/clients-agents.md.
import type { ClientEnv, ClientSpec, ClientAddCommand, EntryRequest, RenderedEntry } from '../types.js';
import { join, projectFile, underKey } from './paths.js';
import { usageError } from '../../core/errors.js';
import { type Entry, strings, onlyScopes, line, pairs } from './add-command-helpers.js';

const factoryDir = (env: ClientEnv): string => join(env, env.homeDir, '.factory');

export const droid: ClientSpec = {
  id: 'droid',
  label: 'Factory Droid',
  format: 'json',
  scopes: ['user', 'project'],
  configPath: (env, scope) =>
    scope === 'project' ? projectFile(env, '.factory', 'mcp.json') : join(env, factoryDir(env), 'mcp.json'),
  ...underKey('mcpServers'),
  variables: 'dollar-brace',
  passesEnvironment: true,
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: factoryDir,
  afterChangeNote: () =>
    'Start a new droid session (or open /mcp in droid); `droid mcp list` shows the server and whether it connects.',
  shape: { stdioFields: { type: 'stdio' }, remote: { urlField: 'url', fields: { type: 'http' } } },
  doctor: { disabledHint: ', or switch it on in droid with /mcp' },
  addCommand: droidAddCommand,
};

export function droidAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientAddCommand {
  onlyScopes('droid', 'droid', request, ['user']);
  const entry = rendered.value as Entry;
  if (typeof entry.url === 'string') {
    return line(request, [
      'droid',
      'mcp',
      'add',
      request.name,
      entry.url,
      '--type',
      'http',
      ...pairs(entry.headers, ': ').flatMap((header) => ['--header', header]),
    ]);
  }
  const args = strings(entry.args);
  if (args.some((arg) => arg.includes('${'))) {
    throw usageError(
      '`droid mcp add` expands ${VAR} in the arguments when it adds them (droid 0.215.0 writes "X-Service-Email:" with the value of your shell, or nothing)',
      'use svcctl mcp install --client droid --mode proxy, which writes the entry itself',
    );
  }
  const env = pairs(entry.env, '=').flatMap((variable) => ['--env', variable]);
  return line(request, ['droid', 'mcp', 'add', request.name, ...env, '--', String(entry.command), ...args]);
}
