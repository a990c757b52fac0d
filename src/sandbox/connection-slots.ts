// A cap on connections that evicts the longest idle one (architecture.md "Sandbox connection slots").
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionSlots {
  /** Closes every connection without a request in flight, so a stopping sandbox waits only for real requests. */
  closeWaiting(): void;
}

export function capConnections(server: Server, max: number): ConnectionSlots {
  // In the order they started to wait: the first is the one to go.
  const waiting = new Set<Socket>();
  const inFlight = new Map<Socket, number>();

  const forget = (socket: Socket): void => {
    waiting.delete(socket);
    inFlight.delete(socket);
  };

  server.on('connection', (socket: Socket) => {
    if (waiting.size + inFlight.size >= max) {
      const [oldest] = waiting;
      if (oldest === undefined) {
        socket.destroy();
        return;
      }
      forget(oldest);
      oldest.destroy();
    }
    waiting.add(socket);
    socket.once('close', () => forget(socket));
  });

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    if (!waiting.delete(socket) && !inFlight.has(socket)) return;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    res.once('close', () => {
      const left = (inFlight.get(socket) ?? 0) - 1;
      if (left > 0) {
        inFlight.set(socket, left);
      } else if (inFlight.delete(socket) && !socket.destroyed) {
        waiting.add(socket);
      }
    });
  });
  return {
    closeWaiting: () => {
      for (const socket of waiting) socket.destroy();
      waiting.clear();
    },
  };
}
