/** The undici transport: a kept-alive pool, or the environment's proxy agent. */
import type { IncomingHttpHeaders } from 'node:http';
import { proxySettings, type HttpResponse, type OutgoingRequest, type Transport, type TransportOptions } from './transport.js';
import { loadUndici, type Dispatcher } from './undici.js';

class ProxyTimeout extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(timeoutMs: number, proxy: string | undefined) {
    super(`no answer within ${timeoutMs / 1000}s through the proxy ${proxy ?? ''}`.trim());
  }
}

class ConnectionLoop extends Error {
  readonly code = 'EPROXYREFUSED';
  constructor(proxy: string | undefined, cause: Error) {
    super(proxy ? `the proxy ${proxy} refused the connection (${cause.message})` : `the connection keeps failing (${cause.message})`);
  }
}

/** Connection failures in a row (no success between) after which undici's reconnecting is cut short. */
const MAX_CONNECT_FAILURES = 5;

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
  const proxyUrl = proxy?.httpsProxy ?? proxy?.httpProxy;

  // undici reconnects without end when a connection closes before it is set up
  // (a proxy refusing the tunnel does that): count the failures and stop.
  let failures = 0;
  let loopError: ConnectionLoop | undefined;
  const watch = <T extends Dispatcher>(pool: T): T => {
    pool.on('connect', () => (failures = 0));
    pool.on('connectionError', (_origin, _targets, error) => {
      if (++failures < MAX_CONNECT_FAILURES || loopError) return;
      loopError = new ConnectionLoop(proxyUrl, error);
      // Destroying the inner pool leaves its request waiting; the outer agent must go.
      void dispatcher.destroy();
    });
    return pool;
  };
  const factory = (origin: string | URL, opts: object): Dispatcher => watch(new undici.Pool(origin, opts));
  const create = (): Dispatcher =>
    proxy ? new undici.EnvHttpProxyAgent({ ...common, ...proxy, factory }) : watch(new undici.Pool(options.origin, common));
  let dispatcher = create();

  /**
   * Through a proxy that refuses the tunnel, undici reconnects without end and
   * ignores an abort signal (undici 7). A deadline per attempt destroys that
   * agent (the only thing that ends it) and starts a fresh one for what follows.
   */
  async function withDeadline<T>(attempt: (d: Dispatcher) => Promise<T>): Promise<T> {
    if (loopError) throw loopError;
    if (!proxy) return attempt(dispatcher).catch((error: unknown) => Promise.reject(loopError ?? error));
    const used = dispatcher;
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      if (dispatcher === used) dispatcher = create();
      void used.destroy();
    }, options.timeoutMs);
    try {
      return await attempt(used);
    } catch (error) {
      if (loopError) throw loopError;
      if (expired) throw new ProxyTimeout(options.timeoutMs, proxyUrl);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  let ended = false;
  const end = async (how: () => Promise<void>): Promise<void> => {
    if (ended) return;
    ended = true;
    await how();
  };

  // A batch posts thousands of requests to one URL: parse it once.
  let lastUrl = '';
  let target = { origin: '', path: '' };
  return {
    send(request: OutgoingRequest): Promise<HttpResponse> {
      if (request.url !== lastUrl) {
        const url = new URL(request.url);
        target = { origin: url.origin, path: `${url.pathname}${url.search}` };
        lastUrl = request.url;
      }
      return withDeadline(async (d) => {
        const response = await d.request({
          origin: target.origin,
          path: target.path,
          method: request.method,
          headers: request.headers,
          body: request.body ?? null,
        });
        const headers = response.headers as IncomingHttpHeaders;
        const success = response.statusCode >= 200 && response.statusCode < 300;
        if (success && request.keepSuccessBody === false) {
          await response.body.dump();
          return { status: response.statusCode, headers, body: '' };
        }
        return { status: response.statusCode, headers, body: await response.body.text() };
      });
    },
    close: () => end(() => (loopError ? dispatcher.destroy() : dispatcher.close())),
    abort: () => end(() => dispatcher.destroy()),
  };
}
