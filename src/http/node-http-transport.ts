/** The transport of single requests: Node's own http/https client with one kept-alive agent. */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { HttpResponse, OutgoingRequest, Transport, TransportOptions } from './transport.js';

class AttemptTimeout extends Error {
  readonly code = 'ETIMEDOUT';
}

export function createNodeHttpTransport(options: TransportOptions): Transport {
  const secure = options.origin.startsWith('https:');
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = secure ? httpsRequest : httpRequest;
  return {
    send(request: OutgoingRequest): Promise<HttpResponse> {
      return new Promise((resolve, reject) => {
        const headers: Record<string, string | number> = { ...request.headers };
        if (request.body) headers['content-length'] = request.body.length;
        const outgoing = send(request.url, { method: request.method, headers, agent }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
          );
        });
        outgoing.setTimeout(options.timeoutMs, () => outgoing.destroy(new AttemptTimeout(`no answer within ${options.timeoutMs} ms`)));
        outgoing.on('error', reject);
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
