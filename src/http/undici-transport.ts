/** The undici transport: a kept-alive pool, or the environment's proxy agent. */
import type { IncomingHttpHeaders } from 'node:http';
import { proxySettings, type HttpResponse, type OutgoingRequest, type Transport, type TransportOptions } from './transport.js';
import { loadUndici } from './undici.js';

export async function createUndiciTransport(options: TransportOptions): Promise<Transport> {
  const undici = await loadUndici();
  const common = {
    connect: { timeout: Math.min(options.timeoutMs, 10_000) },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 10_000,
    connections: options.connections ?? 1,
  };
  const proxy = proxySettings(options.env);
  const dispatcher = proxy ? new undici.EnvHttpProxyAgent({ ...common, ...proxy }) : new undici.Pool(options.origin, common);
  return {
    async send(request: OutgoingRequest): Promise<HttpResponse> {
      const url = new URL(request.url);
      const response = await dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers: request.headers,
        body: request.body ?? null,
      });
      const body = await response.body.text();
      return { status: response.statusCode, headers: response.headers as IncomingHttpHeaders, body };
    },
    close: () => dispatcher.close(),
  };
}
