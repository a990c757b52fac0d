// Facts and sources: docs/clients-agents.md.
import type { ClientEnv, ClientSpec } from '../types.js';
import { join, projectFile, underKey } from './paths.js';

const amazonQDir = (env: ClientEnv): string => join(env, env.homeDir, '.aws', 'amazonq');

/** The "legacy" mcp.json files, which Q CLI's built-in default agent reads (useLegacyMcpJson); ${env:VAR} is expanded
 * in env and headers, not in args, and commands start without a shell (tokio Command). */
export const amazonQ: ClientSpec = {
  id: 'amazon-q',
  label: 'Amazon Q Developer CLI',
  format: 'json',
  scopes: ['user', 'project'],
  configPath: (env, scope) =>
    scope === 'project' ? projectFile(env, '.amazonq', 'mcp.json') : join(env, amazonQDir(env), 'mcp.json'),
  ...underKey('mcpServers'),
  variables: 'env-colon',
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: amazonQDir,
  afterChangeNote: (scope) =>
    scope === 'project'
      ? 'Start `q chat` in the project folder (the file is read from the current folder); /tools shows the server.'
      : 'Start a new `q chat`; /tools shows the server.',
  shape: { remote: { urlField: 'url', fields: { type: 'http' } } },
  extraNotes: () => [
    'Q CLI reads mcp.json through its default agent; a custom agent reads it only with "useLegacyMcpJson": true.',
  ],
};
