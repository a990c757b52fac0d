/**
 * Network stand-ins for login tests on 127.0.0.1: an https login endpoint with the self-signed certificate of
 * test/fixtures/tls (trusted only through NODE_EXTRA_CA_CERTS), and a forwarding proxy that records each target.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { makeJwt, nowPlus } from './jwt.js';
import { EMAIL } from './login-server.js';
import { listenOnLoopback } from './loopback.js';

export const CERT_FILE = fileURLToPath(new URL('../fixtures/tls/cert.pem', import.meta.url));
const KEY_FILE = fileURLToPath(new URL('../fixtures/tls/key.pem', import.meta.url));

export interface HttpsLogin {
  baseUrl: string;
  certFile: string;
  token: string;
  close(): Promise<void>;
}

/** Answers every request with one fixed token. */
export async function startHttpsLogin(): Promise<HttpsLogin> {
  const token = makeJwt({ email: EMAIL, exp: nowPlus(3600) });
  const server = createHttpsServer({ key: readFileSync(KEY_FILE), cert: readFileSync(CERT_FILE) }, (req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: token }));
    });
  });
  const { port, close } = await listenOnLoopback(server);
  return {
    baseUrl: `https://127.0.0.1:${port}/api`,
    certFile: CERT_FILE,
    token,
    close,
  };
}

export interface ForwardProxy {
  url: string;
  seen: string[];
  close(): Promise<void>;
}

/** The name a test gives a server on 127.0.0.1 when the request must not look loopback; only this proxy knows it. */
export const PROXIED_NAME = 'service.test';

/** 127.0.0.1 for PROXIED_NAME and loopback itself; any other host is refused, so nothing leaves 127.0.0.0/8. */
function upstreamHost(host: string): string | undefined {
  if (host === PROXIED_NAME || host === '127.0.0.1' || host === 'localhost') return '127.0.0.1';
  return undefined;
}

/** A forwarding proxy: CONNECT tunnels, and absolute-form HTTP requests. Records each target. */
export async function startForwardProxy(): Promise<ForwardProxy> {
  const seen: string[] = [];
  const server: Server = createHttpServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '');
    const host = upstreamHost(target.hostname);
    if (host === undefined) {
      res.writeHead(502).end();
      return;
    }
    target.hostname = host;
    const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  server.on('connect', (req, client, head) => {
    seen.push(`CONNECT ${req.url}`);
    const [name, port] = (req.url ?? '').split(':');
    const host = upstreamHost(name ?? '');
    if (host === undefined) {
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      return;
    }
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  const { origin, close } = await listenOnLoopback(server);
  return {
    url: origin,
    seen,
    close,
  };
}
