// Loopback never goes through a proxy, whatever NO_PROXY says: a proxy on another host would otherwise see the
// credentials that the plain-http rule lets through in clear for loopback (docs/security.md, "Proxies").
import { isLoopbackHost } from '../config/settings.js';
import type { Fetch } from './bounded-fetch.js';
import { loadUndici } from './undici.js';

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

/** Node's env proxy proxies loopback too: loopback gets a direct agent (architecture.md "Loopback and proxies"). */
export interface DirectFetch {
  fetch: Fetch;
  close(): Promise<void>;
}

export async function loopbackDirect(env: NodeJS.ProcessEnv, url: string, base: Fetch = fetch): Promise<DirectFetch> {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return { fetch: base, close: async () => undefined };
  }
  if (proxySettings(env) === undefined || !bypassesProxy(host)) return { fetch: base, close: async () => undefined };
  const undici = await loadUndici();
  const direct = new undici.Agent();
  // Node's fetch takes an undici dispatcher in RequestInit; its bundled undici's types differ from the package's.
  const withAgent = (init: RequestInit | undefined): RequestInit =>
    ({ ...init, dispatcher: direct }) as unknown as RequestInit;
  return {
    fetch: (input, init) => base(input, withAgent(init)),
    // Destroyed, not closed: an event stream the caller left open must not keep the run waiting.
    close: () => direct.destroy().catch(() => undefined),
  };
}
