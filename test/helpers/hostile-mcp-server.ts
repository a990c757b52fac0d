/**
 * An MCP server on 127.0.0.1 that answers `initialize` as a 2025 server does and then misbehaves on every other
 * request (issue 47): a refusal with a body without end, one SSE `data:` line without end, a JSON answer without
 * end, or notifications without end on the request's event stream; or small SSE events without end where the SDK
 * reads the body whole: on the 202 that accepts a notification, or under a content type it does not take for an
 * event stream ('accepted-events', 'odd-type-events'). Every body stops at `totalBytes`, so a proxy
 * that reads it all stays within what the machine can spare; `sentBytes` counts what the proxy took.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { listenOnLoopback } from './loopback.js';

export type McpMisbehaviour =
  | 'refusal-flood'
  | 'sse-line'
  | 'json-flood'
  | 'notifications'
  | 'accepted-events'
  | 'odd-type-events';

export interface HostileMcpServer {
  url: string;
  /** Body bytes the server wrote (accepted by its socket) so far. */
  sentBytes(): number;
  /** Notifications written so far ('notifications'). */
  notificationsSent(): number;
  /** The stream has written all of `totalBytes`. */
  finished(): boolean;
  /** The proxy closed the stream before it had all of `totalBytes`. */
  cutShort(): boolean;
  close(): Promise<void>;
}

const BLOCK = 64 * 1024;

const NOTIFICATION = `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'n'.repeat(16_000) } })}\n\n`;
const NOTIFICATIONS_PER_BLOCK = Math.ceil(BLOCK / NOTIFICATION.length);
const notificationBlock = (): Buffer => Buffer.from(NOTIFICATION.repeat(NOTIFICATIONS_PER_BLOCK));
/** Events of a few bytes: none is near a cap, all of them are. */
const smallEvents = (): Buffer => Buffer.from(': keep-alive\n\n'.repeat(BLOCK / 14));

const HEADS: Record<McpMisbehaviour, { status: number; type: string; block: () => Buffer; first?: string }> = {
  'refusal-flood': { status: 500, type: 'text/plain', block: () => Buffer.alloc(BLOCK, 'e') },
  'sse-line': { status: 200, type: 'text/event-stream', block: () => Buffer.alloc(BLOCK, 'x'), first: 'data: ' },
  'json-flood': { status: 200, type: 'application/json', block: () => Buffer.alloc(BLOCK, ' '), first: '{"a":"' },
  notifications: { status: 200, type: 'text/event-stream', block: notificationBlock },
  'accepted-events': { status: 202, type: 'text/event-stream', block: smallEvents },
  // A comma: the SDK finds no media type in it (its mediaTypeEssence) and reads the body as text.
  'odd-type-events': { status: 200, type: 'text/event-stream, text/plain', block: smallEvents },
};

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

export async function startHostileMcpServer(how: McpMisbehaviour, totalBytes: number): Promise<HostileMcpServer> {
  let sent = 0;
  let blocks = 0;
  let done = false;
  let cutShort = false;
  const sockets = new Set<Socket>();
  const flood = (response: ServerResponse, id: unknown): void => {
    const head = HEADS[how];
    response.writeHead(head.status, { 'content-type': head.type });
    if (head.first) response.write(head.first);
    const block = head.block();
    const pump = (): void => {
      while (!response.destroyed && sent < totalBytes) {
        sent += block.length;
        blocks += 1;
        if (!response.write(block)) return;
      }
      if (response.destroyed || done) return;
      done = true;
      // After the flood, the answer a patient client would get.
      const answer = { jsonrpc: '2.0', id, result: { tools: [] } };
      response.end(how === 'notifications' ? `data: ${JSON.stringify(answer)}\n\n` : '');
    };
    response.on('drain', pump);
    response.once('close', () => {
      if (!done) cutShort = true;
    });
    pump();
  };
  const server = createServer(async (request, response) => {
    if (request.method !== 'POST') return void response.writeHead(405).end();
    const message = JSON.parse(await readBody(request)) as { id?: unknown; method?: string };
    if (message.id === undefined && how === 'accepted-events') return flood(response, message.id);
    if (message.id === undefined) return void response.writeHead(202).end();
    if (message.method === 'initialize') {
      const result = {
        protocolVersion: '2025-11-25',
        capabilities: { tools: {}, logging: {} },
        serverInfo: { name: 'hostile', version: '1.0.0' },
      };
      response.writeHead(200, { 'content-type': 'application/json' });
      return void response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    }
    flood(response, message.id);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const { origin } = await listenOnLoopback(server);
  return {
    url: `${origin}/mcp`,
    sentBytes: () => sent,
    notificationsSent: () => (how === 'notifications' ? blocks * NOTIFICATIONS_PER_BLOCK : 0),
    finished: () => done,
    cutShort: () => cutShort,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
