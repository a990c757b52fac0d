// Whether an entry reads as one svcctl writes, part by part. It never makes an entry svcctl's (a project can copy the
// content, with a .npmrc beside it: svcctl's record of its writes decides, install/written-entries.ts); doctor uses it
// to say that a project's entry looks like svcctl's but was not written there by svcctl (docs/security.md).
import {
  CLI_NAME,
  HEADER_AUTHORIZATION,
  HEADER_EMAIL,
  HEADER_PASSWORD,
  MCP_PROXY_PACKAGE,
  MCP_SERVER_PACKAGE,
  PACKAGE_RUNNER,
  PACKAGE_RUNNER_YES_FLAG,
} from '../../core/constants.js';
import { deriveMcpUrl } from '../../config/settings.js';
import { commandLine as quotedLine } from '../render/shell-quote.js';
import { HELPER_ARGS, proxyArgs } from '../render/token-helper.js';
import {
  ESCAPED_DOLLAR_BRACE,
  PROXY_HEADER_PREFIX,
  VAR_ACCESS_TOKEN,
  VAR_AUTH_HEADER,
  VAR_BASE_URL,
  VAR_EMAIL,
  VAR_PASSWORD,
} from '../render/values.js';
import { commandLine, strings, URL_FIELDS } from '../service-entries.js';
import type { ClientSpec } from '../types.js';

type Entry = Record<string, unknown>;

export interface OwnEntryContext {
  baseUrl: string | undefined;
  mcpUrl: string | undefined;
  /** How this svcctl is started (install/svcctl-command.ts). */
  svcctlArgv: string[];
  packages?: string[];
}

const isRecord = (value: unknown): value is Entry =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const trimSlash = (url: string): string => url.replace(/\/+$/, '');
const sameUrl = (a: unknown, b: string | undefined): boolean =>
  typeof a === 'string' && b !== undefined && trimSlash(a) === trimSlash(b);
const sameWords = (a: string[], b: string[]): boolean =>
  a.length === b.length && a.every((word, index) => word === b[index]);

const SERVER_SPEC = new RegExp(`^${MCP_SERVER_PACKAGE}(@[\\w.+-]+)?$`);
const SVCCTL_NPX = new RegExp(`^${CLI_NAME}@[\\w.+-]+$`);
const SERVER_ENV = new Set([VAR_EMAIL, VAR_PASSWORD, VAR_BASE_URL]);
const PROXY_VARIABLES = [VAR_AUTH_HEADER, VAR_EMAIL, VAR_PASSWORD];
const PROXY_ENV = new Set([...PROXY_VARIABLES, ...PROXY_VARIABLES.map((name) => `${PROXY_HEADER_PREFIX}${name}`)]);
const HEADERS = new Set([HEADER_AUTHORIZATION, HEADER_EMAIL, HEADER_PASSWORD].map((name) => name.toLowerCase()));
const SERVICE_NAMES = new Set([...SERVER_ENV, ...PROXY_VARIABLES, VAR_ACCESS_TOKEN]);
/** As render/json-clients.ts proxyHeaders writes them, in every spelling. */
const PROXY_HEADER_ARGS = new Set([
  ...[
    [HEADER_AUTHORIZATION, VAR_AUTH_HEADER],
    [HEADER_EMAIL, VAR_EMAIL],
    [HEADER_PASSWORD, VAR_PASSWORD],
  ].flatMap(([header, variable]) =>
    ['${', ESCAPED_DOLLAR_BRACE].flatMap((open) =>
      ['', PROXY_HEADER_PREFIX].map((prefix) => `${header}:${open}${prefix}${variable}}`),
    ),
  ),
  // Codex forwards the token by name (render/codex.ts).
  `${HEADER_AUTHORIZATION}:Bearer \${${VAR_ACCESS_TOKEN}}`,
]);

function svcctlStarts(line: string[], own: OwnEntryContext): number {
  if (own.svcctlArgv.length > 0 && sameWords(line.slice(0, own.svcctlArgv.length), own.svcctlArgv))
    return own.svcctlArgv.length;
  if (line[0] === CLI_NAME) return 1;
  if (line[0] === PACKAGE_RUNNER && line[1] === PACKAGE_RUNNER_YES_FLAG && SVCCTL_NPX.test(line[2] ?? '')) return 3;
  return 0;
}

function deploymentArgs(own: OwnEntryContext): string[][] {
  if (own.baseUrl === undefined) return [];
  const plain = ['--base-url', own.baseUrl];
  return own.mcpUrl !== undefined && !sameUrl(own.mcpUrl, deriveMcpUrl(own.baseUrl))
    ? [[...plain, '--mcp-url', own.mcpUrl]]
    : [plain];
}

function commandKind(line: string[], own: OwnEntryContext): ReadonlySet<string> | undefined {
  const words = line[0] === 'cmd' && line[1] === '/c' ? line.slice(2) : line;
  const [program, first, second, ...rest] = words;
  const serverSpec = (spec: string): boolean => SERVER_SPEC.test(spec) || (own.packages ?? []).includes(spec);
  if (
    program === PACKAGE_RUNNER &&
    first === PACKAGE_RUNNER_YES_FLAG &&
    second !== undefined &&
    serverSpec(second) &&
    rest.length === 0
  )
    return SERVER_ENV;
  if (program === PACKAGE_RUNNER && first === MCP_PROXY_PACKAGE && sameUrl(second, own.mcpUrl)) {
    const tail = rest.at(-1) === '--allow-http' ? rest.slice(0, -1) : rest;
    const pairs =
      tail.length % 2 === 0 &&
      tail.every((word, index) => (index % 2 === 0 ? word === '--header' : PROXY_HEADER_ARGS.has(word)));
    return pairs ? PROXY_ENV : undefined;
  }
  const start = svcctlStarts(words, own);
  if (start === 0) return undefined;
  const after = words.slice(start);
  return deploymentArgs(own).some((args) => sameWords(after, [...args, ...proxyArgs(own.baseUrl!, own.mcpUrl)]))
    ? new Set()
    : undefined;
}

/** As render/token-helper.ts writes it, as the exact shell line, for /bin/sh or for cmd.exe. */
function ownHelperLines(own: OwnEntryContext): string[] {
  const starts = [own.svcctlArgv, [CLI_NAME]].filter((argv) => argv.length > 0);
  const lines = starts.flatMap((argv) => deploymentArgs(own).map((args) => [...argv, ...args, ...HELPER_ARGS]));
  return lines.flatMap((line) =>
    (['posix', 'cmd'] as const).flatMap((shell) => {
      try {
        return [quotedLine(line, shell)];
      } catch {
        return [];
      }
    }),
  );
}

const onlyNames = (value: unknown, allowed: ReadonlySet<string>): boolean =>
  value === undefined || (isRecord(value) && Object.keys(value).every((name) => allowed.has(name)));
const headerNamesOk = (value: unknown): boolean =>
  value === undefined || (isRecord(value) && Object.keys(value).every((name) => HEADERS.has(name.toLowerCase())));

/** Fields that carry no program and no destination: the client's fixed ones, and a transport tag. */
function harmlessFields(client: ClientSpec | null): Set<string> {
  const shape = client?.shape;
  return new Set([
    'type',
    'transport',
    'source',
    'enabled',
    'disabled',
    'name',
    ...Object.keys({ ...shape?.stdioFields, ...shape?.remote.fields, ...shape?.trailingFields }),
  ]);
}

export function isOwnEntry(value: unknown, client: ClientSpec | null, own: OwnEntryContext): boolean {
  if (!isRecord(value)) return false;
  const entry = value;
  const harmless = harmlessFields(client);
  const line = commandLine(entry);
  const helperField = client?.headersCommand?.field;
  const checked = new Set<string>();
  if (line !== undefined) {
    const allowedEnv = commandKind(line, own);
    if (allowedEnv === undefined) return false;
    const command = entry.command;
    const envField = client?.shape.envField ?? 'env';
    const env = entry[envField] ?? entry.env ?? entry.envs ?? (isRecord(command) ? command.env : undefined);
    if (!onlyNames(env, allowedEnv)) return false;
    if (isRecord(env) && env[VAR_BASE_URL] !== undefined && !sameUrl(env[VAR_BASE_URL], own.baseUrl)) return false;
    if (isRecord(command) && Object.keys(command).some((key) => !['path', 'args', 'env'].includes(key))) return false;
    if (![...strings(entry.env_vars), ...strings(entry.env_keys)].every((name) => SERVICE_NAMES.has(name)))
      return false;
    for (const key of ['command', 'args', 'cmd', envField, 'env', 'envs', 'env_vars', 'env_keys']) checked.add(key);
  } else {
    const urlField = URL_FIELDS.find((field) => typeof entry[field] === 'string');
    if (urlField === undefined || !sameUrl(entry[urlField], own.mcpUrl)) return false;
    const requestOptions = entry.requestOptions;
    if (
      ![
        entry.headers,
        entry.http_headers,
        entry.env_http_headers,
        isRecord(requestOptions) ? requestOptions.headers : undefined,
      ].every(headerNamesOk)
    )
      return false;
    if (isRecord(requestOptions) && Object.keys(requestOptions).some((key) => key !== 'headers')) return false;
    if (
      isRecord(entry.env_http_headers) &&
      !Object.values(entry.env_http_headers).every((name) => typeof name === 'string' && SERVICE_NAMES.has(name))
    )
      return false;
    if (entry.bearer_token_env_var !== undefined && !SERVICE_NAMES.has(entry.bearer_token_env_var as string))
      return false;
    if (
      helperField !== undefined &&
      entry[helperField] !== undefined &&
      !ownHelperLines(own).includes(entry[helperField] as string)
    )
      return false;
    for (const key of [
      urlField,
      'headers',
      'http_headers',
      'env_http_headers',
      'bearer_token_env_var',
      'requestOptions',
      ...(helperField === undefined ? [] : [helperField]),
    ])
      checked.add(key);
  }
  return Object.keys(entry).every(
    (key) =>
      checked.has(key) ||
      (harmless.has(key) && typeof entry[key] !== 'string') ||
      (harmless.has(key) && !/[\s/\\]/.test(entry[key] as string)),
  );
}
