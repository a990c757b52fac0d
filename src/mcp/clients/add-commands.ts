/**
 * The client's own way to add the same server (reference §B.6): a command
 * line (`claude mcp add-json`, `codex mcp add`, `gemini mcp add`,
 * `code --add-mcp`) and/or an install link (Cursor, VS Code). Built from the
 * rendered entry, so it adds exactly what `svcctl mcp print` shows.
 */
import { usageError } from '../../errors.js';
import { commandLine, expandedAssignment, shellFor, type Arg } from './shell-quote.js';
import type { ClientAddCommand, ClientSpec, EntryRequest, RenderedEntry } from '../types.js';

export type ClientCommand = ClientAddCommand;

type Entry = Record<string, unknown>;

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);
const record = (value: unknown): Record<string, string> =>
  value !== null && typeof value === 'object' ? (value as Record<string, string>) : {};

export function claudeCodeAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientCommand {
  const argv: Arg[] = ['claude', 'mcp', 'add-json', request.name, JSON.stringify(rendered.value), '--scope', request.scope];
  return { command: commandLine(argv, shellFor(request.platform)), links: [], notes: [] };
}

export function geminiAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientCommand {
  if (request.scope === 'local') throw usageError('Gemini CLI has no local scope', 'use --scope user or --scope project');
  const entry = rendered.value as Entry;
  // Positionals first: -e and -H take several values and would swallow them.
  const argv: Arg[] = ['gemini', 'mcp', 'add', request.name];
  if (typeof entry.url === 'string') {
    argv.push(entry.url, '--scope', request.scope, '--transport', 'http');
    for (const [name, value] of Object.entries(record(entry.headers))) argv.push('-H', `${name}: ${value}`);
  } else {
    argv.push(String(entry.command), '--scope', request.scope);
    for (const [name, value] of Object.entries(record(entry.env))) argv.push('-e', `${name}=${value}`);
    argv.push('--', ...strings(entry.args));
  }
  return { command: commandLine(argv, shellFor(request.platform)), links: [], notes: [] };
}

export function codexAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientCommand {
  if (request.scope !== 'user') throw usageError('`codex mcp add` writes only the user config ($CODEX_HOME/config.toml)', 'use svcctl mcp install --client codex --scope project');
  const entry = rendered.value as Entry;
  const shell = shellFor(request.platform);
  const argv: Arg[] = ['codex', 'mcp', 'add', request.name];
  const notes: string[] = [];
  if (typeof entry.url === 'string') {
    if (entry.http_headers_helper !== undefined) {
      throw usageError('`codex mcp add` has no option for http_headers_helper', 'use svcctl mcp install --client codex (it writes the helper), or --mode proxy');
    }
    if (entry.env_http_headers !== undefined || entry.http_headers !== undefined) {
      throw usageError(
        '`codex mcp add` has no option for request headers, so it cannot add the email and password headers',
        'use svcctl mcp install --client codex (writes env_http_headers), or --auth bearer',
      );
    }
    argv.push('--url', entry.url);
    if (typeof entry.bearer_token_env_var === 'string') argv.push('--bearer-token-env-var', entry.bearer_token_env_var);
  } else {
    for (const [name, value] of Object.entries(record(entry.env))) argv.push('--env', `${name}=${value}`);
    const forwarded = strings(entry.env_vars);
    // `codex mcp add` cannot write env_vars: the shell fills the values in, and they land literally in config.toml.
    for (const variable of forwarded) argv.push('--env', expandedAssignment(variable, shell));
    if (forwarded.length > 0) {
      notes.push(
        `codex mcp add stores ${forwarded.join(' and ')} as literal values in config.toml (taken from your shell when you run it); svcctl mcp install --client codex forwards them by name instead.`,
      );
    }
    argv.push('--', String(entry.command), ...strings(entry.args));
  }
  return { command: commandLine(argv, shell), links: [], notes };
}

function vscodeServerJson(request: EntryRequest, rendered: RenderedEntry): Entry {
  const json: Entry = { name: request.name, ...rendered.value };
  if (rendered.extraTopLevel?.inputs) json.inputs = rendered.extraTopLevel.inputs;
  return json;
}

export function vscodeAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientCommand {
  const json = JSON.stringify(vscodeServerJson(request, rendered));
  const argv: Arg[] = [request.platform === 'win32' ? 'code.cmd' : 'code', '--add-mcp', json];
  const link = `vscode:mcp/install?${encodeURIComponent(json)}`;
  const notes = request.scope === 'project' ? ['code --add-mcp and the install link add the server to the user profile; for the workspace use svcctl mcp install --client vscode --scope project.'] : [];
  return {
    command: commandLine(argv, shellFor(request.platform)),
    links: [
      { kind: 'vscode', url: link },
      // GitHub and most web pages do not open vscode: links; this redirect does.
      { kind: 'web', url: `https://insiders.vscode.dev/redirect?url=${encodeURIComponent(link)}` },
    ],
    notes,
  };
}

export function cursorAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientCommand {
  const config = encodeURIComponent(Buffer.from(JSON.stringify(rendered.value), 'utf8').toString('base64'));
  const query = `name=${encodeURIComponent(request.name)}&config=${config}`;
  return {
    command: null,
    links: [
      { kind: 'cursor', url: `cursor://anysphere.cursor-deeplink/mcp/install?${query}` },
      { kind: 'web', url: `https://cursor.com/en/install-mcp?${query}` },
    ],
    notes: request.scope === 'project' ? ['the Cursor install link adds the server globally; for the project use svcctl mcp install --client cursor --scope project.'] : [],
  };
}

/** The row's addCommand, or a usage error saying the client has none. */
export function clientCommand(client: ClientSpec, request: EntryRequest, rendered: RenderedEntry): ClientCommand {
  if (!client.addCommand) {
    throw usageError(
      `${client.label} has no command line or install link that adds a server`,
      `use svcctl mcp install --client ${client.id}, or svcctl mcp print --client ${client.id} and paste the entry`,
    );
  }
  return client.addCommand(request, rendered);
}
