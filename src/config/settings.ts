// Every SERVICE_* variable has a legacy SVC_* twin: the current name wins, a flag over both; empty counts as unset.
import { ENV_PREFIX, LEGACY_ENV_PREFIX, type SettingName } from '../core/constants.js';
import type { GlobalOptions } from '../core/context.js';
import { usageError } from '../core/errors.js';
import { maskUrl } from '../redaction/mask-entry.js';
import { refuseUserinfo } from './url-secrets.js';

export interface Setting {
  value: string;
  source: string;
  legacy: boolean;
}

export const envName = (name: SettingName): string => `${ENV_PREFIX}${name}`;
export const legacyEnvName = (name: SettingName): string => `${LEGACY_ENV_PREFIX}${name}`;

export function readSetting(
  env: NodeJS.ProcessEnv,
  name: SettingName,
  flag?: { value: string | undefined; name: string },
): Setting | undefined {
  if (flag?.value !== undefined && flag.value !== '') {
    return { value: flag.value, source: flag.name, legacy: false };
  }
  const current = env[envName(name)];
  if (current !== undefined && current !== '') return { value: current, source: envName(name), legacy: false };
  const legacy = env[legacyEnvName(name)];
  if (legacy !== undefined && legacy !== '') return { value: legacy, source: legacyEnvName(name), legacy: true };
  return undefined;
}

export function describeSource(setting: Setting, what: string): string {
  const legacyNote = setting.legacy ? ' (legacy name; the SERVICE_ prefix is preferred)' : '';
  return `${what} from ${setting.source}${legacyNote}`;
}

// The one precedence of the base URL (docs/deployments.md, "Which deployment a command uses"): the program asks it
// whether config.toml must be read, base-url.ts which value to use and where it came from. Here, in the module the
// program loads anyway, so that no command loads the URL checks to learn it.
const DEPLOYMENT_VARIABLE = 'SVCCTL_DEPLOYMENT';

/** A deployment asked for by name, and who asked. */
export interface WantedDeployment {
  name: string;
  source: string;
}

/** `flag` and `variable` give the URL itself; `saved` means config.toml decides: the deployment `wanted` names, or
 * (without it) the file's default, its only deployment, or the only saved login. */
export type BaseUrlSource =
  | { from: 'flag' | 'variable'; setting: Setting }
  | { from: 'saved'; wanted: WantedDeployment | undefined };

const given = (value: string | undefined): value is string => value !== undefined && value !== '';

/** First match wins: --base-url, --deployment, SERVICE_BASE_URL (or SVC_BASE_URL), SVCCTL_DEPLOYMENT, what is saved. */
export function baseUrlSource(
  env: NodeJS.ProcessEnv,
  globals: Pick<Partial<GlobalOptions>, 'baseUrl' | 'deployment'>,
): BaseUrlSource {
  if (given(globals.baseUrl))
    return { from: 'flag', setting: { value: globals.baseUrl, source: '--base-url', legacy: false } };
  if (given(globals.deployment)) return { from: 'saved', wanted: { name: globals.deployment, source: '--deployment' } };
  const variable = readSetting(env, 'BASE_URL');
  if (variable) return { from: 'variable', setting: variable };
  const named = env[DEPLOYMENT_VARIABLE];
  return { from: 'saved', wanted: given(named) ? { name: named, source: DEPLOYMENT_VARIABLE } : undefined };
}

// Loopback by name or address only, never by DNS; URL parsing writes [::ffff:127.0.0.1] as [::ffff:7f00:1].
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)) return true;
  const mapped = /^::ffff:(?:(\d+)\.\d+\.\d+\.\d+|([0-9a-f]{1,4}):[0-9a-f]{1,4})$/.exec(host);
  if (!mapped) return false;
  return mapped[1] !== undefined ? mapped[1] === '127' : parseInt(mapped[2]!, 16) >> 8 === 127;
}

// A hand-edited config.toml or a pasted URL may carry a token in the query or the fragment.
export const shownUrl = maskUrl;

export interface BaseUrl {
  url: string;
  insecureWarning?: string;
}

// An endpoint URL pasted whole (/api/v1/event) is cut after /api; a final /mcp becomes /api.
function suggestApiPath(path: string): string {
  const segments = path.split('/');
  const api = segments.findIndex((segment) => segment.toLowerCase() === 'api');
  if (api > 0) return `${segments.slice(0, api).join('/')}/api`;
  if (path.toLowerCase().endsWith('/mcp')) return `${path.slice(0, -4)}/api`;
  return `${path}/api`;
}

// A missing /api is the most common set-up mistake, so the error suggests the corrected URL.
export function parseBaseUrl(raw: string, source = 'the base URL'): BaseUrl {
  let parsed: URL;
  try {
    parsed = new URL(raw.trim());
  } catch {
    throw usageError(
      `${source} is not a valid URL: '${shownUrl(raw)}'`,
      'give the API base of the deployment, e.g. https://acme.example.com/api',
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw usageError(`${source} must use http or https, not '${parsed.protocol.replace(/:$/, '')}'`);
  }
  refuseUserinfo(parsed, source);
  if (parsed.search || parsed.hash) {
    throw usageError(`${source} must not have a query or fragment: '${shownUrl(raw)}'`);
  }
  const path = parsed.pathname.replace(/\/+$/, '');
  const origin = parsed.origin;
  if (!path.endsWith('/api')) {
    throw usageError(
      `${source} must end in /api: '${shownUrl(raw)}'`,
      `did you mean ${origin}${suggestApiPath(path)}?`,
    );
  }
  const url = `${origin}${path}`;
  const result: BaseUrl = { url };
  if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) {
    result.insecureWarning = `${url} uses plain http: credentials and events travel unencrypted`;
  }
  return result;
}

export function deriveMcpUrl(baseUrl: string): string {
  return `${baseUrl.slice(0, -'/api'.length)}/mcp`;
}

export function apiUrl(baseUrl: string, path: string): string {
  return `${baseUrl}${path}`;
}

// AUTH_HEADER is svcctl's too: the "Bearer <token>" it puts in the configs of clients that cannot build it.
const SECRET_SETTINGS = ['PASSWORD', 'ACCESS_TOKEN', 'INGEST_TOKEN', 'HMAC_SECRET', 'AUTH_HEADER'];
const SECRET_VARIABLES = new Set(SECRET_SETTINGS.flatMap((name) => [ENV_PREFIX + name, LEGACY_ENV_PREFIX + name]));

/** Whether a variable holds one of svcctl's own secrets (upper-cased: Windows names ignore case). */
export const isServiceSecretVariable = (name: string): boolean => SECRET_VARIABLES.has(name.toUpperCase());

/** The values of svcctl's own secret variables that are set. */
export const serviceSecretVariables = (env: NodeJS.ProcessEnv): string[] =>
  [...SECRET_VARIABLES].flatMap((name) => (env[name] ? [env[name]] : []));
