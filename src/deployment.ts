/**
 * Resolves where the deployment is (base URL, MCP URL) from flags and the
 * environment, with the usage errors the contract asks for when it is missing.
 */
import type { Context } from './context.js';
import { usageError } from './errors.js';
import { deriveMcpUrl, describeSource, isLoopbackHost, parseBaseUrl, readSetting } from './settings.js';

export function resolveBaseUrl(ctx: Context): string {
  const setting = readSetting(ctx.env, 'BASE_URL', { value: ctx.globals.baseUrl, name: '--base-url' });
  if (!setting) {
    throw usageError(
      'no base URL: set SERVICE_BASE_URL or pass --base-url',
      'the API base of the deployment ends in /api, e.g. https://acme.example.com/api (svcctl dev prints one)',
    );
  }
  ctx.out.debug(describeSource(setting, 'base URL'));
  const base = parseBaseUrl(setting.value, setting.source);
  if (base.insecureWarning) ctx.out.warn(base.insecureWarning);
  return base.url;
}

export function resolveMcpUrl(ctx: Context, baseUrl?: string): string {
  const setting = readSetting(ctx.env, 'MCP_URL', { value: ctx.globals.mcpUrl, name: '--mcp-url' });
  if (setting) {
    ctx.out.debug(describeSource(setting, 'MCP URL'));
    let url: URL;
    try {
      url = new URL(setting.value);
    } catch {
      throw usageError(`${setting.source} is not a valid URL: '${setting.value}'`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw usageError(`${setting.source} must use http or https`);
    }
    const mcpUrl = setting.value.replace(/\/+$/, '');
    // Like the base URL: an MCP client sends the password headers or the bearer token on every request.
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      ctx.out.warn(`${mcpUrl} uses plain http: the MCP client's credentials (password headers or bearer token) travel unencrypted`);
    }
    return mcpUrl;
  }
  return deriveMcpUrl(baseUrl ?? resolveBaseUrl(ctx));
}
