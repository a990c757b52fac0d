// References are resolved as the client (and mcp-remote, in its --header values) would resolve them.
import { HEADER_AUTHORIZATION, MCP_PROXY_PACKAGE } from '../../core/constants.js';
import { commandLine, isSvcctlProxy, packageName, strings, URL_FIELDS } from '../service-entries.js';

import type { ClientSpec, HeadersCommand } from '../types.js';
import { MCP_REMOTE_SYNTAX, type Resolver, type ReferenceSyntax } from './references.js';

type Entry = Record<string, unknown>;

export interface CommandPlan {
  command: string;
  args: string[];
  env: Record<string, string>;
  forwarded: string[];
}

export interface HttpPlan {
  url: string;
  headers: Record<string, string>;
  /** Claude Code's headersHelper: what it prints is merged into headers. */
  headersCommand?: { line: string; spec: HeadersCommand };
}

export type EntryPlan =
  | { mode: 'local'; shape: string; command: CommandPlan }
  | { mode: 'remote'; shape: string; http: HttpPlan }
  | {
      mode: 'proxy';
      shape: string;
      command: CommandPlan;
      http: HttpPlan | undefined /** `svcctl mcp proxy`: tried over stdio, not through its URL. */;
      svcctl?: true;
    };

const isRecord = (value: unknown): value is Entry =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const stringRecord = (value: unknown): Record<string, string> =>
  isRecord(value)
    ? Object.fromEntries(Object.entries(value).filter((pair): pair is [string, string] => typeof pair[1] === 'string'))
    : {};

function commandOf(entry: Entry): { line: string[]; env: Record<string, string> } | undefined {
  const command = entry.command;
  const line = commandLine(entry);
  if (line === undefined) return undefined;
  return {
    line,
    env: stringRecord(entry.env ?? entry.environment ?? entry.envs ?? (isRecord(command) ? command.env : undefined)),
  };
}

export function proxyTarget(args: string[]): { url: string | undefined; headers: Array<[string, string]> } {
  const start = args.findIndex((arg) => packageName(arg) === MCP_PROXY_PACKAGE);
  const rest = args.slice(start + 1);
  const headers: Array<[string, string]> = [];
  let url: string | undefined;
  for (let index = 0; index < rest.length; index += 1) {
    const arg = rest[index]!;
    if (arg === '--header' && index + 1 < rest.length) {
      const header = rest[++index]!;
      const colon = header.indexOf(':');
      if (colon > 0) headers.push([header.slice(0, colon).trim(), header.slice(colon + 1).trimStart()]);
    } else if (url === undefined && /^https?:\/\//i.test(arg)) {
      url = arg;
    }
  }
  return { url, headers };
}

// Goose fills header values from the entry's envs and env_keys only (extension_manager.rs substitute_env_vars).
const GOOSE_HEADER_SYNTAX: ReferenceSyntax = { braces: true, envColon: false, envBrace: false, bare: true };

function gooseHeaders(entry: Entry, resolver: Resolver): Record<string, string> {
  const scope: Record<string, string> = { ...stringRecord(entry.envs) };
  for (const name of strings(entry.env_keys))
    if (!Object.hasOwn(scope, name)) scope[name] = resolver.byName(name) ?? '';
  return Object.fromEntries(
    Object.entries(stringRecord(entry.headers)).map(([name, value]) => [
      name,
      resolver.text(value, GOOSE_HEADER_SYNTAX, scope),
    ]),
  );
}

function httpHeaders(
  entry: Entry,
  resolver: Resolver,
  syntax: ReferenceSyntax,
  client: ClientSpec | null,
): Record<string, string> {
  if (Array.isArray(entry.env_keys)) return gooseHeaders(entry, resolver);
  const requestOptions = isRecord(entry.requestOptions) ? entry.requestOptions : {};
  // A client may read only its own field (Codex: http_headers; its row's rule fails an entry with `headers`).
  const own = client?.doctor?.headersField;
  const written = stringRecord(
    own !== undefined ? entry[own] : (entry.headers ?? entry.http_headers ?? requestOptions.headers),
  );
  const headers = resolver.record(written, syntax);
  for (const value of Object.values(stringRecord(entry.http_headers))) resolver.secret(value);
  for (const [header, variable] of Object.entries(stringRecord(entry.env_http_headers)))
    headers[header] = resolver.byName(variable) ?? '';
  if (typeof entry.bearer_token_env_var === 'string') {
    headers[HEADER_AUTHORIZATION] = `Bearer ${resolver.byName(entry.bearer_token_env_var) ?? ''}`;
  }
  return headers;
}

function shapeOf(entry: Entry): string {
  const keys = Object.keys(entry).filter((key) => key !== 'type' && key !== 'source');
  return keys.join(', ');
}

/** `env` is the environment the client is assumed to start from; a string says why the entry cannot be read. */
export function planEntry(
  value: unknown,
  syntax: ReferenceSyntax,
  resolver: Resolver,
  env: NodeJS.ProcessEnv,
  client: ClientSpec | null = null,
): EntryPlan | string {
  if (!isRecord(value)) return 'the entry is not an object';
  const entry = value;
  const shape = shapeOf(entry);
  const command = commandOf(entry);
  const urlField = URL_FIELDS.find((field) => typeof entry[field] === 'string');
  if (command !== undefined && urlField !== undefined)
    return `the entry has both a command and a ${urlField}: clients refuse or ignore one of them`;
  if (command !== undefined) {
    // A client that keeps unset references (Qwen Code) leaves ${NAME} of a name only the env block sets for mcp-remote.
    const lineSyntax = syntax.keepsUnset ? { ...syntax, entryNames: new Set(Object.keys(command.env)) } : syntax;
    const [head, ...args] = command.line.map((part) => resolver.text(part, lineSyntax));
    if (head === undefined || head === '') return 'the entry has an empty command';
    const forwarded = strings(entry.env_vars ?? entry.env_keys);
    for (const name of forwarded) resolver.byName(name);
    const plan: CommandPlan = { command: head, args, env: resolver.record(command.env, syntax), forwarded };
    if (isSvcctlProxy([head, ...args])) return { mode: 'proxy', shape, command: plan, http: undefined, svcctl: true };
    if (!args.some((arg) => packageName(arg) === MCP_PROXY_PACKAGE)) return { mode: 'local', shape, command: plan };
    // mcp-remote expands ${VAR} in header values from its own environment: the entry's env over the inherited one.
    const proxyEnv: NodeJS.ProcessEnv = { ...env, ...plan.env };
    const target = proxyTarget(args);
    const headers = Object.fromEntries(
      target.headers.map(([name, raw]) => [name, resolver.text(raw, MCP_REMOTE_SYNTAX, proxyEnv)]),
    );
    return {
      mode: 'proxy',
      shape,
      command: plan,
      http: target.url === undefined ? undefined : { url: target.url, headers },
    };
  }
  if (urlField !== undefined) {
    const url = resolver.text(entry[urlField] as string, syntax);
    const http: HttpPlan = { url, headers: httpHeaders(entry, resolver, syntax, client) };
    const spec = client?.headersCommand;
    if (spec !== undefined && typeof entry[spec.field] === 'string')
      http.headersCommand = { line: resolver.text(entry[spec.field] as string, syntax), spec };
    return { mode: 'remote', shape, http };
  }
  return `the entry has neither a command nor a URL (keys: ${shape || 'none'})`;
}
