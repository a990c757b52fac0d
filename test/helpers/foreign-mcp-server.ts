/**
 * An MCP server over HTTP on 127.0.0.1 (2025-11-25, JSON answers, no sessions) whose words the test sets:
 * its serverInfo name and version, its tool names and the protocolVersion it answers with. What others write
 * (docs/security.md, "Text others wrote") reaches svcctl's lines through these. `server/discover` is not
 * known to it, so the newest clients fall back to `initialize`, as with a 2025-era server.
 */
import { createServer } from 'node:http';
import { startProxyStreams } from './mcp-proxy-in-process.js';
import { listenOnLoopback } from './loopback.js';

export interface ForeignWords {
  name: string;
  version: string;
  tools: string[];
  /** Default: the version the client asked for. */
  protocolVersion?: string;
}

export interface ForeignMcpServer {
  url: string;
  /** Changed between runs; read at each request. */
  words: ForeignWords;
  close(): Promise<void>;
}

export async function startForeignMcpServer(words: ForeignWords): Promise<ForeignMcpServer> {
  const state = { words };
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const message = JSON.parse(body) as { id?: number; method: string; params?: { protocolVersion?: string } };
    if (message.id === undefined) return void res.writeHead(202).end();
    const { name, version, tools, protocolVersion } = state.words;
    const result =
      message.method === 'initialize'
        ? {
            protocolVersion: protocolVersion ?? message.params?.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name, version },
          }
        : message.method === 'tools/list'
          ? { tools: tools.map((tool) => ({ name: tool, inputSchema: { type: 'object' } })) }
          : undefined;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        result
          ? { jsonrpc: '2.0', id: message.id, result }
          : { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'no such method' } },
      ),
    );
  });
  const { port, close } = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    get words() {
      return state.words;
    },
    set words(next: ForeignWords) {
      state.words = next;
    },
    close,
  };
}

/** What `svcctl mcp proxy` (in process) logs on stderr while a client initializes through it to `url`. */
export async function proxyLogOfInitialize(url: string, home: string): Promise<string> {
  const streams = startProxyStreams(['--auth', 'password', '--mcp-url', url, '--email', 'a@example.com'], {
    home,
    env: { SERVICE_PASSWORD: 'foreign-text-pw' },
  });
  let answered = '';
  streams.stdout.on('data', (chunk: Buffer) => {
    answered += chunk.toString('utf8');
  });
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  };
  streams.stdin.write(`${JSON.stringify(initialize)}\n`);
  // The proxy logs the version it connected with before it hands the answer on.
  const bound = Date.now() + 10_000;
  while (!answered.includes('\n')) {
    if (Date.now() > bound) throw new Error(`no answer through the proxy; its log: ${streams.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  streams.stdin.end();
  await streams.exit;
  return streams.stderr();
}
