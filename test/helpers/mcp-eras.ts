/**
 * Clients of both MCP protocol eras for tests: the SDK v2 client (pinned to
 * 2026-07-28, or negotiating with `auto`) and the v1 SDK client, which speaks
 * only the 2025 era (initialize, sessions). And a server built on the SDK v2
 * that speaks only 2026-07-28 (legacy requests refused), or only 2025.
 */
import { createServer, type Server } from 'node:http';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { listenOnLoopback } from './loopback.js';

export type ClientKind = 'pinned-2026' | 'auto' | 'legacy-v1';

export interface EraConnection {
  era: string | undefined;
  version: string | undefined;
  listTools(): Promise<string[]>;
  callText(name: string, args?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

export async function connectAs(
  kind: ClientKind,
  url: string,
  headers: Record<string, string>,
): Promise<EraConnection> {
  if (kind === 'legacy-v1') {
    const client = new LegacyClient({ name: 'svcctl-test-2025', version: '1.0.0' });
    const transport = new LegacyTransport(new URL(url), { requestInit: { headers } });
    await client.connect(transport);
    return {
      era: 'legacy',
      version: transport.protocolVersion,
      listTools: async () => (await client.listTools()).tools.map((tool) => tool.name).sort(),
      callText: async (name, args = {}) =>
        ((await client.callTool({ name, arguments: args })) as { content: Array<{ text: string }> }).content[0]!.text,
      close: async () => {
        await transport.terminateSession().catch(() => undefined);
        await client.close();
      },
    };
  }
  const mode = kind === 'auto' ? ('auto' as const) : { pin: '2026-07-28' };
  const client = new ModernClient({ name: `svcctl-test-${kind}`, version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(new ModernTransport(new URL(url), { requestInit: { headers } }));
  return {
    era: client.getProtocolEra(),
    version: client.getNegotiatedProtocolVersion(),
    listTools: async () => (await client.listTools()).tools.map((tool) => tool.name).sort(),
    callText: async (name, args = {}) =>
      ((await client.callTool({ name, arguments: args })).content[0] as { text: string }).text,
    close: () => client.close(),
  };
}

export interface EraServer {
  url: string;
  /** Requests seen: method and JSON-RPC method. */
  seen: string[];
  close(): Promise<void>;
}

/**
 * An MCP server on the SDK v2 with one tool (`echo`): '2026' speaks only
 * 2026-07-28 (`legacy: 'reject'`), '2025' only the 2025 era (the 2026 request
 * is not recognised: answered 400, as a 2025-only deployment answers it).
 * `password` (when set) is required in X-Service-Password, else 401.
 */
export async function startEraServer(era: '2025' | '2026', password?: string): Promise<EraServer> {
  const factory = (): McpServer => {
    const server = new McpServer({ name: `era-${era}-server`, version: '9.9.9' });
    server.registerTool('echo', { description: 'echo', inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
      content: [{ type: 'text', text }],
    }));
    return server;
  };
  const handler = toNodeHandler(createMcpHandler(factory, { legacy: era === '2026' ? 'reject' : 'stateless' }));
  const seen: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body =
      text === '' ? undefined : (JSON.parse(text) as { method?: string; params?: { _meta?: Record<string, unknown> } });
    seen.push(`${req.method} ${body?.method ?? ''}`.trim());
    if (password !== undefined && req.headers['x-service-password'] !== password) {
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'invalid email or password' } }),
        );
      return;
    }
    if (era === '2025' && body?.params?._meta?.['io.modelcontextprotocol/protocolVersion'] !== undefined) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32000, message: 'Bad Request: Server not initialized' },
        }),
      );
      return;
    }
    await handler(req, res, body);
  });
  const { origin, close } = await listenOnLoopback(server);
  return {
    url: `${origin}/mcp`,
    seen,
    close,
  };
}
