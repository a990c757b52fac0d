/**
 * A test server listening on 127.0.0.1 at a free port, and how to stop it: its open connections (keep-alive
 * clients, tunnels) are cut, so that close() does not wait for them.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  port: number;
  /** `http://127.0.0.1:PORT` (a TLS server's callers write https themselves). */
  origin: string;
  close: () => Promise<void>;
}

export async function listenOnLoopback(server: Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
