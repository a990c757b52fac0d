/**
 * `svcctl mcp proxy --auth password` against an MCP server made in the test
 * (the SDK's McpServer on node:http, Streamable HTTP, one session): messages
 * pass both ways, including notifications and requests from the server to
 * the client; every request carries the credentials; a 401 in the middle of
 * a session is answered by reading the password again, in the same session.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  ListRootsRequestSchema,
  ListRootsResultSchema,
  LoggingMessageNotificationSchema,
  RootsListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { placeFile } from './helpers/cli.js';
import { startProxy } from './helpers/mcp-proxy.js';
import { tempDir } from './helpers/temp-dirs.js';

const EMAIL = 'messages@example.com';
const ROOT = { uri: 'file:///srv/project', name: 'project' };

interface Seen {
  method: string;
  session?: string;
  email?: string;
  password?: string;
}

describe('svcctl mcp proxy: messages both ways (--auth password, a test MCP server)', () => {
  let server: Server;
  let url: string;
  let mcp: McpServer;
  let accepted = 'first-Pa55word';
  const seen: Seen[] = [];
  const rootsChanged: number[] = [];

  before(async () => {
    mcp = new McpServer({ name: 'test-server', version: '1.0.0' }, { capabilities: { logging: {} } });
    mcp.registerTool('roots_via_client', { description: 'asks the client for its roots' }, async (extra) => {
      await extra.sendNotification({
        method: 'notifications/message',
        params: { level: 'info', data: 'asking for roots' },
      });
      const roots = await extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema);
      return { content: [{ type: 'text', text: JSON.stringify(roots.roots) }] };
    });
    mcp.server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
      rootsChanged.push(Date.now());
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => 'c0ffee00-0000-4000-8000-000000000001',
    });
    await mcp.connect(transport);
    server = createServer((req: IncomingMessage, res) => {
      const header = (name: string): string | undefined =>
        typeof req.headers[name] === 'string' ? (req.headers[name] as string) : undefined;
      seen.push({
        method: req.method!,
        session: header('mcp-session-id'),
        email: header('x-service-email'),
        password: header('x-service-password'),
      });
      if (header('x-service-email') !== EMAIL || header('x-service-password') !== accepted) {
        res
          .writeHead(401, { 'content-type': 'application/json' })
          .end('{"jsonrpc":"2.0","error":{"code":-32001,"message":"invalid email or password"},"id":null}');
        return;
      }
      void transport.handleRequest(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  after(async () => {
    await mcp?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('passes notifications and server-to-client requests both ways, with credentials on every request', async () => {
    const home = await tempDir();
    const passwordFile = await placeFile(home, 'pw.txt', `${accepted}\n`);
    const logs: unknown[] = [];
    const proxy = await startProxy(
      ['--auth', 'password', '--mcp-url', url, '--email', EMAIL, '--password-file', passwordFile],
      {
        home,
        clientOptions: { capabilities: { roots: { listChanged: true } } },
        setup: (client) => {
          client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [ROOT] }));
          client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
            logs.push(notification.params.data);
          });
        },
      },
    );
    try {
      // A request of the server's, inside a tool call (on the POST's event stream), and a notification with it.
      const result = (await proxy.client.callTool({ name: 'roots_via_client', arguments: {} })) as {
        content: Array<{ text: string }>;
      };
      assert.deepEqual(JSON.parse(result.content[0]!.text), [ROOT]);
      assert.deepEqual(logs, ['asking for roots']);
      // A request of the server's on its own (the standalone GET event stream).
      const direct = await mcp.server.listRoots();
      assert.deepEqual(direct.roots, [ROOT]);
      // A notification from the client to the server.
      await proxy.client.sendRootsListChanged();
      for (let waited = 0; rootsChanged.length === 0 && waited < 5000; waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(rootsChanged.length, 1);

      // The server now wants another password: the proxy reads the file again after the 401, in the same session.
      accepted = 'second-Pa55word';
      await writeFile(passwordFile, `${accepted}\n`);
      const before401 = seen.length;
      assert.ok((await proxy.client.listTools()).tools.some((tool) => tool.name === 'roots_via_client'));
      const retried = seen.slice(before401);
      assert.deepEqual(
        retried.map((entry) => [entry.method, entry.password === 'second-Pa55word']),
        [
          ['POST', false],
          ['POST', true],
        ],
      );
      assert.ok(retried.every((entry) => entry.session === 'c0ffee00-0000-4000-8000-000000000001'));
      assert.ok(!(await proxy.cmdline()).includes('Pa55word'));
    } finally {
      await proxy.close();
    }
    assert.ok(
      seen.every((entry) => entry.email === EMAIL && entry.password !== undefined),
      'a request went without credentials',
    );
    assert.ok(
      seen.some((entry) => entry.method === 'GET'),
      'no standalone event stream was opened',
    );
    assert.ok(!proxy.stderr().includes('Pa55word'), proxy.stderr());
  });
});
