// Facts and sources: docs/mcp.md.
import type { ClientEnv, ClientSpec, Scope, EntryRequest, RenderedEntry } from '../types.js';
import { envOr, join, projectFile, resolveFor } from './paths.js';
import { commandLine, shellFor, type Arg } from '../render/shell-quote.js';
import { usageError } from '../../core/errors.js';
import { pairs, strings, type ClientCommand, type Entry } from './add-command-helpers.js';

export function claudeCodeStateFile(env: ClientEnv): string {
  return join(env, envOr(env, 'CLAUDE_CONFIG_DIR', env.homeDir), '.claude.json');
}

function claudeCodePath(env: ClientEnv, scope: Scope): string {
  if (scope === 'project') return projectFile(env, '.mcp.json');
  return claudeCodeStateFile(env);
}

/** Claude Code 2.1.332 writes the key with `/` on Windows (`replaceAll("\\", "/")`, docs/mcp.md). */
export function claudeCodeProjectKey(env: ClientEnv): string {
  const folder = resolveFor(env, env.projectKeyDir ?? env.projectDir);
  return env.platform === 'win32' ? folder.replaceAll('\\', '/') : folder;
}

function claudeCodeServersPath(scope: Scope, env: ClientEnv): string[] {
  if (scope === 'local') return ['projects', claudeCodeProjectKey(env), 'mcpServers'];
  return ['mcpServers'];
}

export const claudeCode: ClientSpec = {
  id: 'claude-code',
  label: 'Claude Code',
  managedPolicy: 'ClaudeCode',
  format: 'json',
  scopes: ['user', 'project', 'local'],
  configPath: claudeCodePath,
  entryPath: (name, scope, env) => [...claudeCodeServersPath(scope, env), name],
  serversPath: claudeCodeServersPath,
  variables: 'dollar-brace',
  passesEnvironment: true,
  expandsInArgs: true,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: (env) => join(env, env.homeDir, '.claude'),
  afterChangeNote: (scope) =>
    scope === 'project'
      ? 'Start a new Claude Code session in the project and approve the server when asked (project servers from .mcp.json need approval; see /mcp).'
      : 'Start a new Claude Code session (or run /mcp) to load the server.',
  shape: { stdioFields: { type: 'stdio' }, remote: { urlField: 'url', fields: { type: 'http' } } },
  // headersHelper: run fresh on each connection, shell: true, 10 s (docs/mcp.md has the source and what was checked).
  headersCommand: {
    field: 'headersHelper',
    shell: true,
    output: 'json-headers',
    timeoutMs: 10_000,
    env: { CLAUDE_CODE_MCP_SERVER_NAME: 'server-name', CLAUDE_CODE_MCP_SERVER_URL: 'server-url' },
  },
  addCommand: claudeCodeAddCommand,
};

export function claudeCodeAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientCommand {
  const shell = shellFor(request);
  const argv: Arg[] =
    shell === 'powershell'
      ? claudeAddArgs(request, rendered.value as Entry)
      : ['claude', 'mcp', 'add-json', request.name, JSON.stringify(rendered.value), '--scope', request.scope];
  return { command: commandLine(argv, shell), links: [], notes: [] };
}

/** `claude mcp add` with its options instead of add-json's JSON, whose inner " Windows PowerShell 5.1 strips. -e and -H
 * take several values, so they come after the positionals they would swallow (docs/mcp.md). */
function claudeAddArgs(request: EntryRequest, entry: Entry): Arg[] {
  const known = typeof entry.url === 'string' ? ['type', 'url', 'headers'] : ['type', 'command', 'args', 'env'];
  const unknown = Object.keys(entry).filter((key) => !known.includes(key));
  if (unknown.length > 0) {
    throw usageError(
      `\`claude mcp add\` has no option for ${unknown.join(', ')}, and PowerShell strips the quotes of add-json's JSON`,
      'use svcctl mcp install --client claude-code, which writes the entry itself',
    );
  }
  const argv: Arg[] = ['claude', 'mcp', 'add', '--scope', request.scope];
  if (typeof entry.url === 'string') {
    argv.push('--transport', String(entry.type), request.name, entry.url);
    for (const header of pairs(entry.headers, ': ')) argv.push('--header', header);
    return argv;
  }
  argv.push(request.name);
  for (const variable of pairs(entry.env, '=')) argv.push('-e', variable);
  return [...argv, '--', String(entry.command), ...strings(entry.args)];
}
