/**
 * The `mcp add` command lines of the CLI agents, each checked
 * against the pinned release (docs/clients-agents.md has the forms and what
 * each one writes). Built from the rendered entry, so they add what
 * `svcctl mcp print` shows; where a client's own command cannot (droid
 * expands ${VAR} in args when it adds them), a usage error says so.
 */
import { usageError } from '../../errors.js';
import type { ClientAddCommand, EntryRequest, RenderedEntry, Scope } from '../types.js';
import { commandLine, shellFor, type Arg } from './shell-quote.js';

type Entry = Record<string, unknown>;

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);
const pairs = (value: unknown, separator: string): string[] =>
  Object.entries(value !== null && typeof value === 'object' ? (value as Record<string, string>) : {}).map(([key, item]) => `${key}${separator}${item}`);

const line = (request: EntryRequest, argv: Arg[], notes: string[] = []): ClientAddCommand => ({
  command: commandLine(argv, shellFor(request.platform)),
  links: [],
  notes,
});

function onlyScopes(program: string, client: string, request: EntryRequest, scopes: readonly Scope[]): void {
  if (!scopes.includes(request.scope)) {
    throw usageError(`\`${program} mcp add\` has no ${request.scope} scope`, `use svcctl mcp install --client ${client} --scope ${request.scope}`);
  }
}

/** `copilot mcp add <name> [--env K=V]… -- <cmd> <args…>`; `copilot mcp add --transport http <name> <url> [--header "K: V"]…` (user config). */
export function copilotAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientAddCommand {
  onlyScopes('copilot', 'copilot', request, ['user']);
  const entry = rendered.value as Entry;
  if (typeof entry.url === 'string') {
    return line(request, ['copilot', 'mcp', 'add', '--transport', 'http', request.name, entry.url, ...pairs(entry.headers, ': ').flatMap((header) => ['--header', header])]);
  }
  const env = pairs(entry.env, '=').flatMap((variable) => ['--env', variable]);
  return line(request, ['copilot', 'mcp', 'add', request.name, ...env, '--', String(entry.command), ...strings(entry.args)]);
}

/** `qwen mcp add <name> <commandOrUrl> -s <scope> [-t http] [-H "K: V"]… [-e K=V]… -- <args…>` (positionals first: -e and -H take several values). */
export function qwenAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientAddCommand {
  onlyScopes('qwen', 'qwen', request, ['user', 'project']);
  const entry = rendered.value as Entry;
  if (typeof entry.httpUrl === 'string') {
    const headers = pairs(entry.headers, ': ').flatMap((header) => ['-H', header]);
    return line(request, ['qwen', 'mcp', 'add', request.name, entry.httpUrl, '-s', request.scope, '-t', 'http', ...headers]);
  }
  const env = pairs(entry.env, '=').flatMap((variable) => ['-e', variable]);
  return line(request, ['qwen', 'mcp', 'add', request.name, String(entry.command), '-s', request.scope, ...env, '--', ...strings(entry.args)]);
}

/** `auggie mcp add-json <name> '<json>' [--project | --local]`: the entry exactly as rendered. */
export function auggieAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientAddCommand {
  const scope = request.scope === 'user' ? [] : [`--${request.scope}`];
  return line(request, ['auggie', 'mcp', 'add-json', request.name, JSON.stringify(rendered.value), ...scope]);
}

/** `droid mcp add <name> <url> --type http [--header "K: V"]…`; `droid mcp add <name> [--env K=V]… -- <cmd> <args…>` (user config). */
export function droidAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientAddCommand {
  onlyScopes('droid', 'droid', request, ['user']);
  const entry = rendered.value as Entry;
  if (typeof entry.url === 'string') {
    return line(request, ['droid', 'mcp', 'add', request.name, entry.url, '--type', 'http', ...pairs(entry.headers, ': ').flatMap((header) => ['--header', header])]);
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

/** `amp mcp add <name> [--header K=V]… <url>`; `amp mcp add <name> [--env K=V]… -- <cmd> <args…>`; --workspace for the project. */
export function ampAddCommand(request: EntryRequest, rendered: RenderedEntry): ClientAddCommand {
  const entry = rendered.value as Entry;
  const workspace = request.scope === 'project' ? ['--workspace'] : [];
  const notes = request.scope === 'project' ? ['Then approve it: amp mcp approve ' + request.name] : [];
  if (typeof entry.url === 'string') {
    return line(request, ['amp', 'mcp', 'add', request.name, ...workspace, ...pairs(entry.headers, '=').flatMap((header) => ['--header', header]), entry.url], notes);
  }
  const env = pairs(entry.env, '=').flatMap((variable) => ['--env', variable]);
  return line(request, ['amp', 'mcp', 'add', request.name, ...workspace, ...env, '--', String(entry.command), ...strings(entry.args)], notes);
}
