/**
 * A real HTTP server on 127.0.0.1 that records every request's method, path,
 * headers and raw body bytes, and answers with whatever the test scripts.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { listenOnLoopback } from './loopback.js';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface ScriptedResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/** A response, or 'reset' to destroy the connection without answering. */
export type Responder = (
  request: RecordedRequest,
  index: number,
) => ScriptedResponse | 'reset' | Promise<ScriptedResponse | 'reset'>;

export interface RecordingServer {
  origin: string;
  /** origin + /api: a base URL for svcctl. */
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export const accepted: Responder = (request) => {
  let id: unknown = null;
  try {
    id = JSON.parse(request.body.toString('utf8'))?.event?.id ?? null;
  } catch {
    // not JSON
  }
  return { status: 202, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id }) };
};

export async function startRecordingServer(responder: Responder = accepted): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(recorded);
      const answer = await responder(recorded, requests.length - 1);
      if (answer === 'reset') {
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  });
  server.keepAliveTimeout = 30_000;
  const { origin, close } = await listenOnLoopback(server);
  return {
    origin,
    baseUrl: `${origin}/api`,
    requests,
    close,
  };
}
