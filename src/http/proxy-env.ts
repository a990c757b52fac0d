// Loopback never goes through a proxy, whatever NO_PROXY says: a proxy on another host would otherwise see the
// credentials that the plain-http rule lets through in clear for loopback (docs/security.md, "Proxies").
import { isLoopbackHost } from '../config/settings.js';

function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name.toLowerCase()] ?? env[name.toUpperCase()];
  return value === '' ? undefined : value;
}

export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy: string;
}

export function proxySettings(env: NodeJS.ProcessEnv): ProxySettings | undefined {
  const httpProxy = envValue(env, 'http_proxy');
  const httpsProxy = envValue(env, 'https_proxy') ?? httpProxy;
  if (!httpProxy && !httpsProxy) return undefined;
  return { httpProxy, httpsProxy, noProxy: envValue(env, 'no_proxy') ?? '' };
}

/** `*.localhost` too (RFC 6761): it names this machine, and a proxy would resolve it to its own. */
export function bypassesProxy(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return isLoopbackHost(host) || host.endsWith('.localhost');
}

/** The proxy for requests to `url`'s origin: none for loopback. */
export function proxyFor(env: NodeJS.ProcessEnv, url: string): ProxySettings | undefined {
  const settings = proxySettings(env);
  if (settings === undefined) return undefined;
  return bypassesProxy(new URL(url).hostname) ? undefined : settings;
}
