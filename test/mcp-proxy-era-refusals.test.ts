/**
 * `svcctl mcp proxy` against servers that answer the era questions with a JSON-RPC answer (HTTP 200) the
 * proxy cannot bridge: each client request still gets an answer that says why (mcp-proxy-eras.test.ts has the
 * servers built on the SDK, which refuse with an HTTP error instead). The server here is a few lines of
 * node:http that answer each JSON-RPC method as the test says.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startProxyStreams } from './helpers/mcp-proxy-in-process.js';
import { tempDir } from './helpers/temp-dirs.js';

const PASSWORD = 'era-refusals-Pa55word';

/** Answers each JSON-RPC request by its method (HTTP 200, application/json); notifications get 202. */
async function startJsonRpcServer(answers: Record<string, Record<string, unknown>>): Promise<Server> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      if (request.method !== 'POST') return response.writeHead(405).end();
      const message = JSON.parse(body) as { id?: string | number; method: string };
      const answer = answers[message.method];
      if (message.id === undefined || answer === undefined) return response.writeHead(202).end();
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...answer }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

const urlOf = (server: Server): string => `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;

describe('svcctl mcp proxy: era answers it cannot bridge', () => {
  let home: string;
  let passwordFile: string;
  const servers: Server[] = [];

  before(async () => {
    home = await tempDir();
    passwordFile = join(home, 'password');
    await writeFile(passwordFile, PASSWORD, { mode: 0o600 });
  });
  after(() => {
    for (const server of servers) server.close();
  });

  /** Sends one raw JSON-RPC line to a proxy in front of `answers`; resolves with its first answer and its stderr. */
  async function ask(answers: Record<string, Record<string, unknown>>, message: Record<string, unknown>) {
    const server = await startJsonRpcServer(answers);
    servers.push(server);
    const streams = startProxyStreams(
      ['--auth', 'password', '--mcp-url', urlOf(server), '--email', 'e@example.com', '--password-file', passwordFile],
      { home },
    );
    let stdout = '';
    const line = new Promise<string>((resolve) =>
      streams.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
        if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!);
      }),
    );
    streams.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    const answer = JSON.parse(await line) as { id: unknown; error?: { message: string } };
    streams.stdin.end();
    assert.equal(await streams.exit, 0, streams.stderr());
    return { answer, stderr: streams.stderr() };
  }

  it('a 2025 initialize refused, and server/discover without 2026-07-28: the initialize is answered with both', async () => {
    const { answer } = await ask(
      {
        initialize: { error: { code: -32022, message: 'Unsupported protocol version' } },
        'server/discover': { result: { supportedVersions: ['2024-11-05'] } },
      },
      {
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      },
    );
    assert.equal(answer.id, 1);
    assert.match(
      answer.error?.message ?? '',
      /^svcctl mcp proxy: http:\/\/127\.0\.0\.1:\d+\/mcp refused 2025-11-25 and does not offer 2026-07-28 either: \["2024-11-05"\]$/,
    );
  });

  it("a client's server/discover answered with a JSON-RPC error: the client pinned to 2026-07-28 is told why", async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const { answer, stderr } = await ask(
      { 'server/discover': { error: { code: -32601, message: 'Method not found' } } },
      { id: 7, method: 'server/discover', params: { _meta: meta } },
    );
    assert.equal(answer.id, 7);
    assert.match(
      answer.error?.message ?? '',
      /does not speak MCP 2026-07-28 \(it answered: Method not found\): a client pinned to 2026-07-28 cannot use it/,
    );
    assert.match(stderr, /does not speak MCP 2026-07-28 \(it answered: Method not found\)/);
  });

  it("a client's server/discover answered without 2026-07-28: it says what the server offers", async () => {
    const { answer } = await ask(
      { 'server/discover': { result: { supportedVersions: ['2025-06-18', '2025-11-25'] } } },
      { id: 'd', method: 'server/discover', params: {} },
    );
    assert.equal(answer.id, 'd');
    assert.match(answer.error?.message ?? '', /does not speak MCP 2026-07-28 \(it offers 2025-06-18, 2025-11-25\)/);
  });
});
