// Types only, so the two transports do not import the factory (transport.ts) back.
import type { IncomingHttpHeaders } from 'node:http';

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  truncated?: boolean;
}

export interface OutgoingRequest {
  url: string;
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body?: Buffer;
  /** false: a batch does not need 2xx bodies; dropping them is ~10% faster. */
  keepSuccessBody?: boolean;
}

export interface Transport {
  send(request: OutgoingRequest): Promise<HttpResponse>;
  close(): Promise<void>;
  abort(): Promise<void>;
}

export interface TransportOptions {
  env: NodeJS.ProcessEnv;
  origin: string;
  timeoutMs: number;
  connections?: number;
}
