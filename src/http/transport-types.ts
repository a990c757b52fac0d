/**
 * What a transport is: the request it sends, the answer it gives back, and
 * the options it is made with. Types only; the factory that picks a transport
 * is transport.ts, the proxy settings of the environment are proxy-env.ts.
 */
import type { IncomingHttpHeaders } from 'node:http';

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as far as it was read: see body-limit.ts for the caps. */
  body: string;
  /** True when the body was longer than its cap and was cut (the rest was dropped, the connection closed). */
  truncated?: boolean;
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
  /** One attempt, ended by the deadline of TransportOptions.timeoutMs (attempt-deadline.ts). */
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
  /** Deadline of each whole attempt (connect, send, headers, complete body), in ms. */
  timeoutMs: number;
  /** Requests in flight at once (batches). */
  connections?: number;
}
