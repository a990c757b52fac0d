// Single requests use Node's http client (in the start-up snapshot); batches and proxying use an undici pool:
// ~3× the throughput, but ~90 ms to load (BENCHMARKS.md).
import { createNodeHttpTransport } from './node-http-transport.js';
import { proxyFor } from './proxy-env.js';
import type { Transport, TransportOptions } from './transport-types.js';

export type { HttpResponse, OutgoingRequest, Transport, TransportOptions } from './transport-types.js';
export { bypassesProxy } from './proxy-env.js';

export async function createTransport(options: TransportOptions): Promise<Transport> {
  if ((options.connections ?? 1) > 1 || proxyFor(options.env, options.origin)) {
    const { createUndiciTransport } = await import('./undici-transport.js');
    return createUndiciTransport(options);
  }
  return createNodeHttpTransport(options);
}
