/**
 * How requests leave svcctl. One request (a single event, a login) goes
 * through Node's own http/https client, which is part of Node's start-up
 * snapshot and costs almost nothing to load; batches and proxied requests go
 * through an undici pool (kept-alive connections, ~3× the throughput), which
 * costs ~90 ms to load. Both send the Buffer they are given, byte for byte.
 * BENCHMARKS.md has the numbers behind this choice.
 */
import type { IncomingHttpHeaders } from 'node:http';

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface OutgoingRequest {
  url: string;
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body?: Buffer;
  /** false: the body of a 2xx answer is read and dropped (a batch does not need it; ~10% faster). */
  keepSuccessBody?: boolean;
}

export interface Transport {
  send(request: OutgoingRequest): Promise<HttpResponse>;
  /** Waits for requests in flight, then closes the connections. */
  close(): Promise<void>;
  /** Drops requests in flight and closes the connections at once. */
  abort(): Promise<void>;
}

export interface TransportOptions {
  env: NodeJS.ProcessEnv;
  /** The origin every request goes to. */
  origin: string;
  /** Timeout of each attempt, in ms. */
  timeoutMs: number;
  /** Requests in flight at once (batches). */
  connections?: number;
}

function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name.toLowerCase()] ?? env[name.toUpperCase()];
  return value === '' ? undefined : value;
}

/** The proxy settings of the environment (either case of HTTP_PROXY, HTTPS_PROXY, NO_PROXY). */
export function proxySettings(env: NodeJS.ProcessEnv): { httpProxy?: string; httpsProxy?: string; noProxy: string } | undefined {
  const httpProxy = envValue(env, 'http_proxy');
  const httpsProxy = envValue(env, 'https_proxy') ?? httpProxy;
  if (!httpProxy && !httpsProxy) return undefined;
  return { httpProxy, httpsProxy, noProxy: envValue(env, 'no_proxy') ?? '' };
}

export async function createTransport(options: TransportOptions): Promise<Transport> {
  if ((options.connections ?? 1) > 1 || proxySettings(options.env)) {
    const { createUndiciTransport } = await import('./undici-transport.js');
    return createUndiciTransport(options);
  }
  const { createNodeHttpTransport } = await import('./node-http-transport.js');
  return createNodeHttpTransport(options);
}
