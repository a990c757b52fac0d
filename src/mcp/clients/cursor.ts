// Facts and sources: docs/mcp.md.
import type { ClientSpec, EntryRequest, RenderedEntry } from '../types.js';
import { join, projectFile, underKey } from './paths.js';
import type { ClientCommand } from './add-command-helpers.js';

export const cursor: ClientSpec = {
  id: 'cursor',
  label: 'Cursor',
  format: 'json',
  scopes: ['user', 'project'],
  configPath: (env, scope) =>
    scope === 'project' ? projectFile(env, '.cursor', 'mcp.json') : join(env, env.homeDir, '.cursor', 'mcp.json'),
  ...underKey('mcpServers'),
  variables: 'env-colon',
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: (env) => join(env, env.homeDir, '.cursor'),
  afterChangeNote: () =>
    'In Cursor open Settings → MCP (Tools & Integrations), check that the server is enabled, or reload the window.',
  shape: { remote: { urlField: 'url' } },
  guiApp: true,
  startPath: 'login-shell',
  addCommand: cursorAddCommand,
};

export function cursorAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientCommand {
  const config = encodeURIComponent(Buffer.from(JSON.stringify(rendered.value), 'utf8').toString('base64'));
  const query = `name=${encodeURIComponent(request.name)}&config=${config}`;
  return {
    command: null,
    links: [
      { kind: 'cursor', url: `cursor://anysphere.cursor-deeplink/mcp/install?${query}` },
      { kind: 'web', url: `https://cursor.com/en/install-mcp?${query}` },
    ],
    notes:
      request.scope === 'project'
        ? [
            'the Cursor install link adds the server globally; for the project use svcctl mcp install --client cursor --scope project.',
          ]
        : [],
  };
}
