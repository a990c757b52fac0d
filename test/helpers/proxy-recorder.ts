/** An HTTP proxy stand-in on 127.0.0.1: records each request and CONNECT and answers 502, forwarding nothing. */
import { createServer, type Server } from 'node:http';
import { listenOnLoopback } from './loopback.js';

export interface ProxyRecorder {
  url: string;
  /** `METHOD url` of each request, `CONNECT host:port` of each tunnel asked for. */
  seen: string[];
  close(): Promise<void>;
}

export async function startProxyRecorder(): Promise<ProxyRecorder> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    res.writeHead(502).end();
  });
  server.on('connect', (req, socket) => {
    seen.push(`CONNECT ${req.url}`);
    socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
  });
  const { origin, close } = await listenOnLoopback(server);
  return {
    url: origin,
    seen,
    close,
  };
}
