import type { IncomingHttpHeaders } from 'node:http';
import { startDeadline, type AttemptDeadline } from './attempt-deadline.js';
import { bodyLimit, CappedBody } from './body-limit.js';
import { proxyFor } from './proxy-env.js';
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
    super(
      proxy
        ? `the proxy ${proxy} refused the connection (${cause.message})`
        : `the connection keeps failing (${cause.message})`,
    );
  }
}

const MAX_CONNECT_FAILURES = 5;

/** A handler, not a stream: a batch sends tens of thousands, and this costs less than request() and body.text().
 * undici's documented handler API (docs/api/Dispatcher.md, `DispatchHandler`, undici 7.30, read 2026-11-27), not the
 * deprecated one its core still speaks: the adapter costs ~4-5 % of a batch's CPU per event (BENCHMARKS.md, "undici's
 * handler API and its public entry"), not more than the 5 % for which the private one would be kept. */
class Exchange implements Dispatcher.DispatchHandler {
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private body: CappedBody | undefined;
  private controller: Dispatcher.DispatchController | undefined;
  private settled = false;
  private readonly deadline: AttemptDeadline;

  constructor(
    private readonly resolve: (response: HttpResponse) => void,
    private readonly reject: (error: unknown) => void,
    private readonly keepSuccessBody: boolean,
    timeoutMs: number,
    private readonly errorOf: (error: unknown) => unknown,
  ) {
    this.deadline = startDeadline(timeoutMs, (error) => {
      this.finish(error);
      this.controller?.abort(error);
    });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.deadline.error) controller.abort(this.deadline.error);
    else this.deadline.reached('headers');
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    this.deadline.reached('body');
    this.status = statusCode;
    const success = statusCode >= 200 && statusCode < 300;
    this.body = new CappedBody(bodyLimit(statusCode), !success || this.keepSuccessBody);
    if (!success) this.headers = headers;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.body === undefined || this.body.add(chunk)) return;
    this.finish(undefined); // cut: the rest is dropped with the connection
    controller.abort(new Error('answer cut at its cap'));
  }

  onResponseEnd(): void {
    this.finish(undefined);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.finish(error);
  }

  private finish(error: Error | undefined): void {
    if (this.settled) return;
    this.settled = true;
    this.deadline.clear();
    if (error) this.reject(this.errorOf(error));
    else
      this.resolve({
        status: this.status,
        headers: this.headers,
        body: this.body?.text() ?? '',
        truncated: this.body?.truncated,
      });
  }
}

function exchange(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  keepSuccessBody: boolean,
  timeoutMs: number,
  errorOf: (error: unknown) => unknown,
): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const handler = new Exchange(resolve, reject, keepSuccessBody, timeoutMs, errorOf);
    dispatcher.dispatch(options, handler);
  });
}

/** undici reconnects without end when a connection closes before it is set up (a proxy refusing the tunnel): stop it. */
function watchConnections(proxyUrl: string | undefined, onLoop: (error: ConnectionLoop) => void) {
  let failures = 0;
  let stopped = false;
  return <T extends Dispatcher>(pool: T): T => {
    pool.on('connect', () => (failures = 0));
    pool.on('connectionError', (_origin, _targets, error) => {
      if (++failures < MAX_CONNECT_FAILURES || stopped) return;
      stopped = true;
      onLoop(new ConnectionLoop(proxyUrl, error));
    });
    return pool;
  };
}

/** A batch posts thousands of requests to one URL: it is parsed once. */
function dispatchOptionsFactory(): (request: OutgoingRequest) => Dispatcher.DispatchOptions {
  let lastUrl = '';
  let target = { origin: '', path: '' };
  return (request) => {
    if (request.url !== lastUrl) {
      const url = new URL(request.url);
      target = { origin: url.origin, path: `${url.pathname}${url.search}` };
      lastUrl = request.url;
    }
    return {
      origin: target.origin,
      path: target.path,
      method: request.method,
      headers: request.headers,
      body: request.body ?? null,
    };
  };
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
  // Each transport serves one origin (TransportOptions): the proxy is decided for it once.
  const proxy = proxyFor(options.env, options.origin);
  const proxyUrl = proxy?.httpsProxy ?? proxy?.httpProxy;

  let loopError: ConnectionLoop | undefined;
  const watch = watchConnections(proxyUrl, (error) => {
    loopError = error;
    // Destroying the inner pool leaves its request waiting; the outer agent must go.
    void dispatcher.destroy();
  });
  const factory = (origin: string | URL, opts: object): Dispatcher => watch(new undici.Pool(origin, opts));
  const create = (): Dispatcher =>
    proxy
      ? new undici.EnvHttpProxyAgent({ ...common, ...proxy, factory })
      : watch(new undici.Pool(options.origin, common));
  let dispatcher = create();

  /** undici 7 ignores an abort signal while reconnecting to a refusing proxy: only destroying the agent ends it. */
  async function throughProxy<T>(attempt: (d: Dispatcher) => Promise<T>): Promise<T> {
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

  const errorOf = (error: unknown): unknown => loopError ?? error;

  let ended = false;
  const end = async (how: () => Promise<void>): Promise<void> => {
    if (ended) return;
    ended = true;
    await how();
  };

  const dispatchOptionsOf = dispatchOptionsFactory();
  return {
    send(request: OutgoingRequest): Promise<HttpResponse> {
      const dispatchOptions = dispatchOptionsOf(request);
      const keep = request.keepSuccessBody !== false;
      if (loopError) return Promise.reject(loopError);
      // No async frame or closure per request without a proxy.
      if (!proxy) return exchange(dispatcher, dispatchOptions, keep, options.timeoutMs, errorOf);
      return throughProxy((d) => exchange(d, dispatchOptions, keep, options.timeoutMs, errorOf));
    },
    close: () => end(() => (loopError ? dispatcher.destroy() : dispatcher.close())),
    abort: () => end(() => dispatcher.destroy()),
  };
}
