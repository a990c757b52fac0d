// Facts and sources: docs/clients-editors.md.
import type { ClientEnv, ClientSpec } from '../types.js';
import { join, projectFile, underKey } from './paths.js';

const warpDir = (env: ClientEnv): string => join(env, env.homeDir, '.warp');

/** Warp substitutes ${VAR} in the whole file's text before parsing it, args included, and one missing or empty variable
 * stops every server of that file (warpdotdev/warp file_mcp_watcher.rs, parsing.rs). */
export const warp: ClientSpec = {
  id: 'warp',
  label: 'Warp',
  format: 'json',
  scopes: ['user', 'project'],
  configPath: (env, scope) =>
    scope === 'project' ? projectFile(env, '.warp', '.mcp.json') : join(env, warpDir(env), '.mcp.json'),
  ...underKey('mcpServers'),
  variables: 'dollar-brace',
  expandsInArgs: true,
  noProxy:
    'Warp fills every ${VAR} of the file, args included, from its own environment and has no escape, so mcp-remote would get the secrets on its command line',
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: warpDir,
  afterChangeNote: (scope) =>
    scope === 'project'
      ? 'Warp reads the project file of a git repository once you cd into it in Warp; check Settings → Agents → MCP servers.'
      : 'Warp reloads ~/.warp/.mcp.json when it changes; check Settings → Agents → MCP servers.',
  // Untagged in Warp: a `url` entry is its HTTP transport, a `command` entry stdio; no type field.
  shape: { remote: { urlField: 'url' } },
  guiApp: true,
  extraNotes: (request) =>
    request.secrets === 'ref'
      ? [
          'Warp starts none of the servers in this file while one ${VAR} in it is unset or empty in its environment; a value with a " or \\ breaks the file (Warp pastes it into the JSON text).',
        ]
      : [],
};
