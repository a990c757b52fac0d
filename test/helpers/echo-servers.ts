/**
 * Servers on 127.0.0.1 that echo back what they received, in the encoding
 * named in the request path (/<status-or-mode>/<encoding index>/...): the
 * service's event and login endpoints, and an MCP endpoint that either
 * rejects the request or answers initialize with a server name made of the
 * echo. The encoding index `all` echoes the secret alone (the password, else
 * the bearer token) once in every encoding (everyEncodingBody).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { startRecordingServer, type RecordedRequest, type RecordingServer } from './recording-server.js';
import { ENCODING_NAMES, ENCODINGS, echoBody, everyEncodingBody, inJson } from './secret-encodings.js';
import { listenOnLoopback } from './loopback.js';

const header = (headers: IncomingMessage['headers'], name: string): string => String(headers[name] ?? '');

/** The values a request carried that an echo gives back: credentials headers, and the login body's password. */
function receivedValues(headers: IncomingMessage['headers'], body: Buffer): string[] {
  const values: string[] = [];
  const authorization = header(headers, 'authorization');
  if (authorization) values.push(authorization, authorization.replace(/^Bearer /, ''));
  const email = header(headers, 'x-service-email');
  const password = header(headers, 'x-service-password');
  if (password) values.push(password, `${email}:${password}`);
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { email?: string; password?: string };
    if (typeof parsed.password === 'string') values.push(parsed.password, `${parsed.email}:${parsed.password}`);
  } catch {
    // not a login body
  }
  return values;
}

/** The one secret a request carried: the password (header or login body), else the bearer token. */
function receivedSecret(headers: IncomingMessage['headers'], body: Buffer): string {
  const password = header(headers, 'x-service-password');
  if (password) return password;
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { password?: unknown };
    if (typeof parsed.password === 'string') return parsed.password;
  } catch {
    // not a login body
  }
  return header(headers, 'authorization').replace(/^Bearer /, '');
}

const ALL = 'all';

/** Where a URL path names the answer: /<first>/<encoding index or all>/rest. */
function route(url: string): { first: string; encoding: string } {
  const [, first = '', index = '0'] = url.split('/');
  return { first, encoding: index === ALL ? ALL : (ENCODING_NAMES[Number(index)] ?? 'plain') };
}

const echoOf = (encoding: string, headers: IncomingMessage['headers'], body: Buffer): string =>
  encoding === ALL
    ? everyEncodingBody(receivedSecret(headers, body))
    : echoBody(encoding, receivedValues(headers, body));

const indexOf = (encoding: string): string => (encoding === ALL ? ALL : String(ENCODING_NAMES.indexOf(encoding)));

/** The base URL of an echo service answering `status` with the received values in `encoding` ('all': the secret in every encoding). */
export const echoBaseUrl = (server: RecordingServer, status: number, encoding: string): string =>
  `${server.origin}/${status}/${indexOf(encoding)}/api`;

export function startEchoService(): Promise<RecordingServer> {
  return startRecordingServer((request: RecordedRequest) => {
    const { first, encoding } = route(request.url);
    return {
      status: Number(first),
      headers: { 'content-type': 'application/json' },
      body: echoOf(encoding, request.headers, request.body),
    };
  });
}

export interface EchoMcpServer {
  /**
   * An MCP URL that rejects (401, the echo as body), forbids (403, the echo as body: a refusal that no new
   * credentials answer) or answers (the echo as the server's name; not with 'all').
   */
  url(mode: 'reject' | 'forbid' | 'answer', encoding: string): string;
  close(): Promise<void>;
}

function rpc(id: unknown, result: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, result });
}

export async function startEchoMcpServer(): Promise<EchoMcpServer> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const { first, encoding } = route(req.url ?? '/');
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const body = Buffer.concat(chunks);
      const echo = echoOf(encoding, req.headers, body);
      if (first === 'reject' || first === 'forbid')
        return void res.writeHead(first === 'reject' ? 401 : 403, { 'content-type': 'application/json' }).end(echo);
      const message = JSON.parse(body.toString('utf8')) as {
        id?: unknown;
        method: string;
        params?: { protocolVersion?: string };
      };
      if (message.id === undefined) return void res.writeHead(202).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      if (message.method === 'initialize') {
        // The encoded values go into the name as written: JSON escapes are decoded by the client's parser.
        const named = receivedValues(req.headers, body)
          .map((value) => inJson(ENCODINGS[encoding]!(value)))
          .join(' ');
        const raw = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"protocolVersion":${JSON.stringify(message.params?.protocolVersion)},"capabilities":{"tools":{}},"serverInfo":{"name":"echo ${named}","version":"1.0.0"}}}`;
        return void res.end(raw);
      }
      return void res.end(
        rpc(
          message.id,
          message.method === 'tools/list' ? { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] } : {},
        ),
      );
    });
  });
  const { port, close } = await listenOnLoopback(server);
  return {
    url: (mode, encoding) => `http://127.0.0.1:${port}/${mode}/${indexOf(encoding)}/mcp`,
    close,
  };
}
