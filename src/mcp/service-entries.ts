import {
  CLI_NAME,
  ENV_PREFIX,
  HEADER_EMAIL,
  LEGACY_ENV_PREFIX,
  LEGACY_HEADER_EMAIL,
  MCP_PROXY_PACKAGE,
  SETTING_NAMES,
} from '../core/constants.js';
import type { Mode } from './types.js';

export interface ServiceMatcher {
  package: string;
  mcpUrl: string | undefined;
  /** MCP URLs of the other deployments svcctl knows (saved ones, saved logins): their entries are the service's too. */
  otherMcpUrls?: string[];
}

type Entry = Record<string, unknown>;

export const URL_FIELDS = ['url', 'serverUrl', 'httpUrl', 'uri'] as const;
const HEADER_PREFIXES = [HEADER_EMAIL, LEGACY_HEADER_EMAIL].map((name) => name.replace(/Email$/, '').toLowerCase());

export const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
const keysOf = (value: unknown): string[] =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
const trimSlash = (url: string): string => url.replace(/\/+$/, '');

export function packageName(arg: string): string {
  const at = arg.indexOf('@', arg.startsWith('@') ? 1 : 0);
  return at < 0 ? arg : arg.slice(0, at);
}

export function commandLine(entry: Entry): string[] | undefined {
  const command = entry.command;
  if (typeof command === 'string') return [command, ...strings(entry.args)];
  if (command === undefined && typeof entry.cmd === 'string') return [entry.cmd, ...strings(entry.args)];
  if (Array.isArray(command)) return strings(command);
  const zed =
    command !== null && typeof command === 'object' ? (command as { path?: unknown; args?: unknown }) : undefined;
  if (typeof zed?.path === 'string') return [zed.path, ...strings(zed.args ?? entry.args)];
  return undefined;
}

const isSvcctl = (arg: string): boolean =>
  /(^|[\\/])svcctl(\.(cmd|exe|js))?$/i.test(arg) || packageName(arg) === CLI_NAME;

export function isSvcctlProxy(line: string[]): boolean {
  const at = line.findIndex(isSvcctl);
  return at >= 0 && line.slice(at + 1).some((arg, index, rest) => arg === 'mcp' && rest[index + 1] === 'proxy');
}

// Forms: svcctl, /path/bin/svcctl.js (after node), svcctl.cmd, svcctl@<version> (after npx -y).
export const SVCCTL_HELPER = /(^|[\s\\/'"])svcctl(\.cmd|\.js)?(@[\w.+-]+)?['"]?\s.*\btoken\b.*--refresh/;

function urlMatches(url: string, mcpUrl: string | undefined): boolean {
  if (mcpUrl === undefined) return false;
  const a = trimSlash(url);
  const b = trimSlash(mcpUrl);
  return a === b || a.endsWith(b);
}

function headerNames(entry: Entry): string[] {
  const requestOptions = entry.requestOptions as { headers?: unknown } | undefined;
  return [entry.headers, entry.http_headers, entry.env_http_headers, requestOptions?.headers].flatMap(keysOf);
}

function envNames(entry: Entry): string[] {
  const env = entry.env ?? entry.environment ?? entry.envs ?? (entry.command as { env?: unknown } | undefined)?.env;
  return [
    ...keysOf(env),
    ...strings(entry.env_vars),
    ...(typeof entry.bearer_token_env_var === 'string' ? [entry.bearer_token_env_var] : []),
  ];
}

// Only the service's own variable names: a SERVICE_ACCOUNT_JSON of some other server is not ours.
const SERVICE_VARIABLES = new Set(
  [...SETTING_NAMES, 'AUTH_HEADER'].flatMap((name) => [`${ENV_PREFIX}${name}`, `${LEGACY_ENV_PREFIX}${name}`]),
);
const isServiceVariable = (name: string): boolean => SERVICE_VARIABLES.has(name);
const isServiceHeader = (name: string): boolean =>
  HEADER_PREFIXES.some((prefix) => name.toLowerCase().startsWith(prefix));

export function pointsAtService(value: unknown, matcher: ServiceMatcher): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const entry = value as Entry;
  const line = commandLine(entry) ?? [];
  if (line.some((arg) => packageName(arg) === matcher.package || arg.endsWith(`/${matcher.package}`))) return true;
  if (isSvcctlProxy(line)) return true;
  if (Object.values(entry).some((value) => typeof value === 'string' && SVCCTL_HELPER.test(value))) return true;
  if (line.some((arg) => packageName(arg) === MCP_PROXY_PACKAGE)) {
    if (line.some((arg) => urlMatches(arg, matcher.mcpUrl))) return true;
    if (line.some((arg) => isServiceHeader(arg.split(':')[0] ?? ''))) return true;
  }
  const urls = [matcher.mcpUrl, ...(matcher.otherMcpUrls ?? [])];
  if (
    URL_FIELDS.some(
      (field) => typeof entry[field] === 'string' && urls.some((url) => urlMatches(entry[field] as string, url)),
    )
  )
    return true;
  if (
    line.some((arg) => packageName(arg) === MCP_PROXY_PACKAGE) &&
    line.some((arg) => urls.some((url) => urlMatches(arg, url)))
  )
    return true;
  return headerNames(entry).some(isServiceHeader) || envNames(entry).some(isServiceVariable);
}

export function modeOf(value: unknown): Mode {
  const entry = value as Entry;
  const line = commandLine(entry) ?? [];
  if (line.some((arg) => packageName(arg) === MCP_PROXY_PACKAGE) || isSvcctlProxy(line)) return 'proxy';
  if (URL_FIELDS.some((field) => typeof entry[field] === 'string')) return 'remote';
  return 'local';
}

/** Where an entry sends its requests, as written: the URL field of a remote entry, the URL argument of a proxy, else
 * the base URL variable of a local entry; undefined when none is written (or it is a `${VAR}` reference). */
export function entryUrl(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const entry = value as Entry;
  const field = URL_FIELDS.map((name) => entry[name]).find((url): url is string => typeof url === 'string');
  const argument = (commandLine(entry) ?? []).find((arg) => /^https?:\/\//.test(arg));
  const env = (entry.env ?? entry.environment ?? entry.envs) as Record<string, unknown> | undefined;
  const variable = [`${ENV_PREFIX}BASE_URL`, `${LEGACY_ENV_PREFIX}BASE_URL`]
    .map((name) => env?.[name])
    .find((url): url is string => typeof url === 'string');
  const url = field ?? argument ?? variable;
  return url === undefined || url.includes('${') || url.includes('{env:') ? undefined : trimSlash(url);
}

/** True when the entry's URL is written and is neither the current MCP URL nor the current base URL. */
export function forAnotherDeployment(url: string | undefined, current: { mcpUrl?: string; baseUrl?: string }): boolean {
  if (url === undefined || (current.mcpUrl === undefined && current.baseUrl === undefined)) return false;
  return (
    !urlMatches(url, current.mcpUrl) &&
    !(current.baseUrl !== undefined && trimSlash(url) === trimSlash(current.baseUrl))
  );
}
