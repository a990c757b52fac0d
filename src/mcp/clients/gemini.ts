// Facts and sources: docs/mcp.md.
import type { ClientSpec, EntryRequest, RenderedEntry } from '../types.js';
import { join, probe, projectFile, underKey } from './paths.js';
import { usageError } from '../../core/errors.js';
import { commandLine, shellFor, type Arg } from '../render/shell-quote.js';
import { record, strings, type ClientCommand, type Entry } from './add-command-helpers.js';

/** Gemini CLI's own default request timeout (10 minutes), written out so `gemini mcp list` waits as long. */
export const GEMINI_TIMEOUT_MS = 600_000;

export const gemini: ClientSpec = {
  id: 'gemini',
  label: 'Gemini CLI',
  format: 'jsonc',
  scopes: ['user', 'project'],
  configPath: (env, scope) =>
    scope === 'project'
      ? projectFile(env, '.gemini', 'settings.json')
      : join(env, env.homeDir, '.gemini', 'settings.json'),
  ...underKey('mcpServers'),
  variables: 'dollar-brace',
  expandsInArgs: true,
  remoteInFile: true,
  windowsCmdWrap: false,
  detectPath: (env) => join(env, env.homeDir, '.gemini'),
  afterChangeNote: () => 'Start a new Gemini CLI session; /mcp lists the servers.',
  // `mcp list` gives a server 5 s unless its entry says `timeout`, too short for a first `npx` download; the value
  // is the documented default of a session's requests, so sessions wait as long as without it (docs/mcp.md).
  shape: { remote: { urlField: 'url', fields: { type: 'http' } }, trailingFields: { timeout: GEMINI_TIMEOUT_MS } },
  bareVariables: true,
  addCommand: geminiAddCommand,
  replacedBy: {
    client: 'antigravity',
    label: "Antigravity's CLI (agy)",
    installed: (env) => probe(env).exists(join(env, env.homeDir, '.gemini', 'antigravity-cli')),
  },
};

export function geminiAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientCommand {
  if (request.scope === 'local')
    throw usageError('Gemini CLI has no local scope', 'use --scope user or --scope project');
  const entry = rendered.value as Entry;
  // Positionals first: -e and -H take several values and would swallow them.
  const argv: Arg[] = ['gemini', 'mcp', 'add', request.name];
  if (typeof entry.url === 'string') {
    argv.push(entry.url, '--scope', request.scope, '--transport', 'http', ...timeoutArgs(entry));
    for (const [name, value] of Object.entries(record(entry.headers))) argv.push('-H', `${name}: ${value}`);
  } else {
    argv.push(String(entry.command), '--scope', request.scope, ...timeoutArgs(entry));
    for (const [name, value] of Object.entries(record(entry.env))) argv.push('-e', `${name}=${value}`);
    argv.push('--', ...strings(entry.args));
  }
  return { command: commandLine(argv, shellFor(request)), links: [], notes: [] };
}

const timeoutArgs = (entry: Entry): string[] =>
  typeof entry.timeout === 'number' ? ['--timeout', String(entry.timeout)] : [];
