// The optional forms serve commands that work without a deployment: undefined when unset, yet a set value is checked.
import type { Context } from '../core/context.js';
import { usageError } from '../core/errors.js';
import { refusePlainHttp } from './plain-http.js';
import { refuseUserinfo, urlSecrets } from './url-secrets.js';
import {
  baseUrlSource,
  deriveMcpUrl,
  describeSource,
  isLoopbackHost,
  parseBaseUrl,
  readSetting,
  type Setting,
  shownUrl,
} from './settings.js';

const warned = new WeakMap<Context, Set<string>>();

/** A warning about a URL, given once per run however often the URL is resolved. */
function warnOnce(ctx: Context, message: string): void {
  const seen = warned.get(ctx) ?? new Set<string>();
  warned.set(ctx, seen);
  if (seen.has(message)) return;
  seen.add(message);
  ctx.out.warn(message);
}

/** The base URL's setting by the one precedence (settings.ts, baseUrlSource); a saved deployment is the one the program picked. */
function baseUrlSetting(ctx: Context): Setting | undefined {
  const source = baseUrlSource(ctx.env, ctx.globals);
  if (source.from !== 'saved') return source.setting;
  if (ctx.deployment?.kind !== 'picked') return undefined;
  const { deployment, source: why } = ctx.deployment;
  return { value: deployment.baseUrl, source: `deployment '${deployment.name}' (${why})`, legacy: false };
}

export function optionalBaseUrl(ctx: Context, sends?: string): string | undefined {
  const setting = baseUrlSetting(ctx);
  if (!setting) return undefined;
  ctx.out.debug(describeSource(setting, 'base URL'));
  const base = parseBaseUrl(setting.value, setting.source);
  if (sends !== undefined) refusePlainHttp(ctx, base.url, sends);
  if (base.insecureWarning) warnOnce(ctx, base.insecureWarning);
  return base.url;
}

export function baseUrlOrigin(
  ctx: Context,
  baseUrl: string,
): { name: string | null; base_url: string; source: string; saved: boolean } {
  const source = baseUrlSource(ctx.env, ctx.globals);
  if (source.from !== 'saved') return { name: null, base_url: baseUrl, source: source.setting.source, saved: false };
  const picked = ctx.deployment?.kind === 'picked' ? ctx.deployment : undefined;
  if (!picked) return { name: null, base_url: baseUrl, source: 'unknown', saved: false };
  return { name: picked.deployment.name, base_url: baseUrl, source: picked.source, saved: true };
}

/** `sends`: the credential sent there (plain-http.ts refuses plain http to another host). */
export function resolveBaseUrl(ctx: Context, sends?: string): string {
  const url = optionalBaseUrl(ctx, sends);
  if (url !== undefined) return url;
  if (ctx.deployment?.kind === 'ambiguous') {
    throw usageError(
      `no base URL, and several deployments are saved (${ctx.deployment.names.slice(0, 20).join(', ')}${ctx.deployment.names.length > 20 ? ', …' : ''}): name one`,
      'pass --deployment NAME (or set SVCCTL_DEPLOYMENT), or make one the default: svcctl deployment use NAME',
    );
  }
  throw usageError(
    'no base URL: set SERVICE_BASE_URL or pass --base-url',
    'the API base of the deployment ends in /api, e.g. https://acme.example.com/api (svcctl dev prints one); svcctl login --save remembers it',
  );
}

function givenMcpUrl(ctx: Context, sends?: string): string | undefined {
  const setting = readSetting(ctx.env, 'MCP_URL', { value: ctx.globals.mcpUrl, name: '--mcp-url' });
  if (!setting) return undefined;
  ctx.out.debug(describeSource(setting, 'MCP URL'));
  let url: URL;
  try {
    url = new URL(setting.value);
  } catch {
    throw usageError(`${setting.source} is not a valid URL: '${shownUrl(setting.value)}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw usageError(`${setting.source} must use http or https`);
  }
  refuseUserinfo(url, setting.source);
  const mcpUrl = setting.value.replace(/\/+$/, '');
  // Hidden like any secret in what svcctl prints (`?api_key=***`); `--show-secrets` prints it on purpose.
  for (const secret of urlSecrets(mcpUrl)) ctx.secrets.add(secret);
  if (sends !== undefined) refusePlainHttp(ctx, mcpUrl, sends);
  // Like the base URL: an MCP client sends the password headers or the bearer token on every request.
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    warnOnce(
      ctx,
      `${mcpUrl} uses plain http: the MCP client's credentials (password headers or bearer token) travel unencrypted`,
    );
  }
  return mcpUrl;
}

export function optionalMcpUrl(ctx: Context): string | undefined {
  const given = givenMcpUrl(ctx);
  if (given !== undefined) return given;
  const baseUrl = optionalBaseUrl(ctx);
  return baseUrl === undefined ? undefined : deriveMcpUrl(baseUrl);
}

export function resolveMcpUrl(ctx: Context, baseUrl?: string, sends?: string): string {
  return givenMcpUrl(ctx, sends) ?? deriveMcpUrl(baseUrl ?? resolveBaseUrl(ctx, sends));
}
