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

function headersOf(raw: Buffer[] | string[] | null): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  if (!raw) return headers;
  for (let i = 0; i + 1 < raw.length; i += 2) headers[String(raw[i]).toLowerCase()] = String(raw[i + 1]);
  return headers;
}

/** A handler, not a stream: a batch sends tens of thousands, and this costs less than request() and body.text(). */
class Exchange {
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private body: CappedBody | undefined;
  private abortRequest: ((error: Error) => void) | undefined;
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
      this.abortRequest?.(error);
    });
  }

  onConnect(abortRequest: (error: Error) => void): void {
    this.abortRequest = abortRequest;
    if (this.deadline.error) abortRequest(this.deadline.error);
    else this.deadline.reached('headers');
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[] | string[] | null): boolean {
    this.deadline.reached('body');
    this.status = statusCode;
    const success = statusCode >= 200 && statusCode < 300;
    this.body = new CappedBody(bodyLimit(statusCode), !success || this.keepSuccessBody);
    if (!success) this.headers = headersOf(rawHeaders);
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.body === undefined || this.body.add(chunk)) return true;
    this.finish(undefined); // cut: the rest is dropped with the connection
    this.abortRequest?.(new Error('answer cut at its cap'));
    return false;
  }

  onComplete(): void {
    this.finish(undefined);
  }

  onError(error: Error): void {
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
    dispatcher.dispatch(options, handler as unknown as Dispatcher.DispatchHandler);
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
  // Each transport serves one origin (TransportOptions): the proxy is decided for it once.
  const proxy = proxyFor(options.env, options.origin);
  const proxyUrl = proxy?.httpsProxy ?? proxy?.httpProxy;

  // undici reconnects without end when a connection closes before it is set up (a proxy refusing the tunnel): stop it.
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
      const dispatchOptions = {
        origin,
        path,
        method: request.method,
        headers: request.headers,
        body: request.body ?? null,
      };
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
