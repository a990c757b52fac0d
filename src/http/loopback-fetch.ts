/**
 * Node's own fetch (what the MCP SDK uses in `mcp proxy` and `mcp doctor`) goes through HTTP_PROXY / HTTPS_PROXY
 * when NODE_USE_ENV_PROXY=1 or --use-env-proxy is given (Node 22 and 24; NO_PROXY is its only exception), loopback
 * included: measured 2026-11-27 with Node 22.23 and 24.21, a proxy on 127.0.0.1 got the CONNECT for a fetch to
 * 127.0.0.1. A request to loopback is given its own direct agent instead (proxy-env.ts: never proxy loopback).
 * undici is loaded only then: with no proxy variable, or a host that is not loopback, fetch is left as it is.
 */
import type { Fetch } from './deadline-fetch.js';
import { bypassesProxy, proxySettings } from './proxy-env.js';
import { loadUndici } from './undici.js';

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
