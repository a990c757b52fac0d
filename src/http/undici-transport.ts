/** The undici transport: a kept-alive pool, or the environment's proxy agent. */
import type { IncomingHttpHeaders } from 'node:http';
import { startDeadline } from './attempt-deadline.js';
import { bodyLimit, CappedBody } from './body-limit.js';
import { proxySettings } from './proxy-env.js';
import type { HttpResponse, OutgoingRequest, Transport, TransportOptions } from './transport-types.js';
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

/** Header names and values of undici's raw header list, lower-cased names. */
function headersOf(raw: Buffer[] | string[] | null): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  if (!raw) return headers;
  for (let i = 0; i + 1 < raw.length; i += 2) headers[String(raw[i]).toLowerCase()] = String(raw[i + 1]);
  return headers;
}

/**
 * One request through undici's dispatch API: the answer is gathered by a
 * small handler instead of a stream (a batch sends tens of thousands; this
 * costs less than request() and body.text()). One deadline per attempt ends
 * the whole exchange; the body is read up to its cap (a 2xx body that is not
 * kept is counted and dropped as it arrives).
 */
function exchange(dispatcher: Dispatcher, options: Dispatcher.DispatchOptions, keepSuccessBody: boolean, timeoutMs: number): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    let status = 0;
    let headers: IncomingHttpHeaders = {};
    let body: CappedBody | undefined;
    let abort: ((error: Error) => void) | undefined;
    let settled = false;
    const finish = (error: Error | undefined): void => {
      if (settled) return;
      settled = true;
      deadline.clear();
      if (error) reject(error);
      else resolve({ status, headers, body: body?.text() ?? '', truncated: body?.truncated });
    };
    const deadline = startDeadline(timeoutMs, (error) => {
      finish(error);
      abort?.(error);
    });
    dispatcher.dispatch(options, {
      onConnect(abortRequest: (error: Error) => void) {
        abort = abortRequest;
        if (deadline.error) abortRequest(deadline.error);
        else deadline.reached('headers');
      },
      onHeaders(statusCode: number, rawHeaders: Buffer[] | string[] | null) {
        deadline.reached('body');
        status = statusCode;
        const success = statusCode >= 200 && statusCode < 300;
        body = new CappedBody(bodyLimit(statusCode), !success || keepSuccessBody);
        if (!success) headers = headersOf(rawHeaders);
        return true;
      },
      onData(chunk: Buffer) {
        if (body === undefined || body.add(chunk)) return true;
        finish(undefined); // cut: the rest is dropped with the connection
        abort?.(new Error('answer cut at its cap'));
        return false;
      },
      onComplete() {
        finish(undefined);
      },
      onError: finish,
    } as unknown as Dispatcher.DispatchHandler);
  });
}

export async function createUndiciTransport(options: TransportOptions): Promise<Transport> {
  const undici = await loadUndici();
  const common = {
    connect: { timeout: Math.min(options.timeoutMs, 10_000) },
    // Backstops only: the deadline of each attempt (attempt-deadline.ts) ends it first.
    headersTimeout: options.timeoutMs + 1000,
    bodyTimeout: options.timeoutMs + 1000,
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
      const { origin, path } = target;
      return withDeadline((d) => exchange(d, { origin, path, method: request.method, headers: request.headers, body: request.body ?? null }, request.keepSuccessBody !== false, options.timeoutMs));
    },
    close: () => end(() => (loopError ? dispatcher.destroy() : dispatcher.close())),
    abort: () => end(() => dispatcher.destroy()),
  };
}
