/**
 * The sandbox's cap on open connections, kept so that clients which never finish a request cannot hold it.
 *
 * Node's own `server.maxConnections` refuses the newest connection once the cap is reached, so any local user who
 * opens that many connections and sends half a request header keeps every real request out (each of them is reset)
 * until the header time runs out, and again as soon as they reconnect. Here a connection that arrives at the cap
 * takes the place of the one that has waited longest without a request in flight (a header not yet complete, or a
 * kept-alive connection between requests): the newcomer is a real client as often as not, and a real client sends
 * its request at once, after which it is no longer the one to go. Only when every connection has a request in
 * flight is the newcomer refused, as before.
 */
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
