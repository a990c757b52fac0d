/**
 * How requests leave svcctl. One request (a single event, a login) goes
 * through Node's own http/https client, which is part of Node's start-up
 * snapshot and costs almost nothing to load; batches and proxied requests go
 * through an undici pool (kept-alive connections, ~3× the throughput), which
 * costs ~90 ms to load. Both send the Buffer they are given, byte for byte,
 * and both end every attempt at its deadline (attempt-deadline.ts) and read
 * answers with a cap (body-limit.ts). BENCHMARKS.md has the numbers.
 *
 * This module is the factory only; the types live in transport-types.ts, so
 * the two transports do not import this module back.
 */
import { proxySettings } from './proxy-env.js';
import type { Transport, TransportOptions } from './transport-types.js';

export type { HttpResponse, OutgoingRequest, Transport, TransportOptions } from './transport-types.js';
export { proxySettings } from './proxy-env.js';

export async function createTransport(options: TransportOptions): Promise<Transport> {
  if ((options.connections ?? 1) > 1 || proxySettings(options.env)) {
    const { createUndiciTransport } = await import('./undici-transport.js');
    return createUndiciTransport(options);
  }
  const { createNodeHttpTransport } = await import('./node-http-transport.js');
  return createNodeHttpTransport(options);
}
