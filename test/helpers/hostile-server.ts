/**
 * Misbehaving HTTP servers on 127.0.0.1, made with raw `net` sockets, for the
 * deadline and body-cap tests: each reads the request head and then answers
 * badly (trickles, never answers, sends without end, closes half-way).
 */
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type Misbehaviour =
  | { kind: 'trickle'; status: number } // headers, then one byte a second
  | { kind: 'silent' } // never a byte back
  | { kind: 'flood'; status: number; chunked?: boolean } // a body without end, as fast as the socket takes it
  | { kind: 'half'; status: number }; // half of the announced body, then close

export interface HostileServer {
  baseUrl: string;
  /** Requests whose head arrived. */
  requests: number;
  /** Body bytes written to clients so far. */
  sentBytes: () => number;
  close(): Promise<void>;
}

const BLOCK = Buffer.alloc(64 * 1024, 'x');

export async function startHostileServer(how: Misbehaviour): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  let sent = 0;
  const state = { requests: 0 };
  const answer = (socket: Socket): void => {
    const head = (status: number, extra: string): void =>
      void socket.write(`HTTP/1.1 ${status} X\r\ncontent-type: application/json\r\n${extra}\r\n`);
    if (how.kind === 'silent') return;
    if (how.kind === 'trickle') {
      head(how.status, 'content-length: 1000\r\n');
      const timer = setInterval(() => socket.write('{'), 1000);
      socket.once('close', () => clearInterval(timer));
      return;
    }
    if (how.kind === 'half') {
      head(how.status, 'content-length: 1000\r\n');
      socket.end(`{"error":"${'y'.repeat(480)}`);
      return;
    }
    head(how.status, how.chunked ? 'transfer-encoding: chunked\r\n' : `content-length: ${300 * 1024 * 1024}\r\n`);
    const block = how.chunked
      ? Buffer.concat([Buffer.from(`${BLOCK.length.toString(16)}\r\n`), BLOCK, Buffer.from('\r\n')])
      : BLOCK;
    const pump = (): void => {
      while (!socket.destroyed && socket.write(block)) sent += BLOCK.length;
    };
    socket.on('drain', pump);
    pump();
  };
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => sockets.delete(socket));
    let seen = '';
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString('latin1');
      if (!seen.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      socket.resume();
      state.requests++;
      answer(socket);
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api`,
    get requests() {
      return state.requests;
    },
    sentBytes: () => sent,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
