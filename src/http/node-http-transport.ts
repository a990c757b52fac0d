// For single requests: Node's own client is in the start-up snapshot, while undici costs ~90 ms to load. Deadline and
// body cap shared with the other two clients (docs/architecture.md, "Three HTTP clients").
import type { ClientRequest, IncomingMessage } from 'node:http';
import { startDeadline } from './attempt-deadline.js';
import { bodyLimit, CappedBody } from './body-limit.js';
import type { HttpResponse, OutgoingRequest, Transport, TransportOptions } from './transport-types.js';

class CutShort extends Error {
  readonly code = 'ECONNRESET';
}

export async function createNodeHttpTransport(options: TransportOptions): Promise<Transport> {
  // Loaded by the first request, not by every command (this module is in the core chunk, which all of them load);
  // node:https (and TLS with it) only for an https origin: a few ms of start-up otherwise.
  const client = options.origin.startsWith('https:') ? await import('node:https') : await import('node:http');
  const agent = new client.Agent({ keepAlive: true });
  const send = client.request;
  return {
    send(request: OutgoingRequest): Promise<HttpResponse> {
      return new Promise((resolve, reject) => {
        const headers: Record<string, string | number> = { ...request.headers };
        if (request.body) headers['content-length'] = request.body.length;
        let settled = false;
        const finish = (error: Error | undefined, response?: HttpResponse): void => {
          if (settled) return;
          settled = true;
          deadline.clear();
          if (error) reject(error);
          else resolve(response as HttpResponse);
        };
        const receive = (response: IncomingMessage): void => {
          deadline.reached('body');
          const status = response.statusCode ?? 0;
          const success = status >= 200 && status < 300;
          const body = new CappedBody(bodyLimit(status), !success || request.keepSuccessBody !== false);
          const answer = (): HttpResponse => ({
            status,
            // Node builds the headers object on first read (~0.2 ms); a delivered event never reads it.
            get headers() {
              return response.headers;
            },
            body: body.text(),
            truncated: body.truncated,
          });
          response.on('data', (chunk: Buffer) => {
            if (body.add(chunk)) return;
            finish(undefined, answer());
            outgoing.destroy(); // the rest is dropped with the connection
          });
          response.on('error', (error) => finish(error));
          response.on('end', () => finish(undefined, answer()));
          response.on('close', () =>
            finish(
              response.complete ? undefined : new CutShort(`the connection closed in the middle of the answer`),
              answer(),
            ),
          );
        };
        const outgoing: ClientRequest = send(request.url, { method: request.method, headers, agent }, receive);
        const deadline = startDeadline(options.timeoutMs, (error) => {
          finish(error);
          outgoing.destroy(error);
        });
        // 'finish' may come before the connection is made (the body waits in the socket's buffer).
        let connected = false;
        let sent = false;
        const onConnect = (): void => {
          connected = true;
          deadline.reached(sent ? 'headers' : 'send');
        };
        outgoing.once('socket', (socket) => (socket.connecting ? socket.once('connect', onConnect) : onConnect()));
        outgoing.once('finish', () => {
          sent = true;
          if (connected) deadline.reached('headers');
        });
        outgoing.on('error', (error) => finish(error));
        outgoing.end(request.body);
      });
    },
    async close() {
      agent.destroy();
    },
    async abort() {
      agent.destroy();
    },
  };
}
