/**
 * `svcctl mcp proxy` as the process an MCP client starts (its tokens over time and its bridge between protocol
 * eras are tested in-process: mcp-proxy-tokens.test.ts, mcp-proxy-eras.test.ts). Against an MCP server made in the test (the SDK's McpServer on node:http, one
 * session): messages pass both ways, including notifications and requests from the server to the client; every
 * request carries the credentials; a 401 in the middle of a session is answered by reading the password again,
 * in the same session. Against the sandbox: stdout holds only JSON-RPC, the process ends when stdin closes, no
 * secret is in its argv, and with nothing to log in with it fails at once.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  ListRootsRequestSchema,
  ListRootsResultSchema,
  LoggingMessageNotificationSchema,
  RootsListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { BIN, cleanEnv, placeSecretFile, runCli, spawnCli } from './helpers/cli.js';
import { startDev, type DevServer } from './helpers/dev-sandbox.js';
import { startProxy } from './helpers/mcp-proxy.js';
import { tempDir } from './helpers/temp-dirs.js';
import { pollUntil } from './helpers/poll.js';

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
    const passwordFile = await placeSecretFile(home, 'pw.txt', `${accepted}\n`);
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
      await pollUntil('the roots/list_changed notification at the server', () => rootsChanged.length > 0);
      assert.equal(rootsChanged.length, 1);

      // The server now wants another password: the proxy reads the file again after the 401, in the same session.
      accepted = 'second-Pa55word';
      await writeFile(passwordFile, `${accepted}\n`, { mode: 0o600 });
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

const USER = { email: 'proxy-user@example.com', password: 'pr0xy-Pa55word' };

describe('svcctl mcp proxy as a process against svcctl dev', { concurrency: true }, () => {
  let dev: DevServer;
  before(async () => {
    dev = await startDev(['--user', `${USER.email}:${USER.password}`]);
  });
  after(async () => {
    await dev?.stop();
  });

  it('writes only JSON-RPC lines on stdout, has no secret in its argv, and exits 0 when stdin closes', async () => {
    const home = await tempDir();
    const login = await runCli(['login', '--save', '--email', USER.email], {
      home,
      env: { SERVICE_BASE_URL: dev.ready.base_url, SERVICE_PASSWORD: USER.password },
    });
    assert.equal(login.code, 0, login.stderr);
    const saved = JSON.parse(await readFile(join(home, '.config', 'svcctl', 'credentials.json'), 'utf8'));
    const tokens = Object.values(saved.tokens as Record<string, { access_token: string }>).map((t) => t.access_token);
    const child = spawn(process.execPath, [BIN, 'mcp', 'proxy'], {
      cwd: home,
      env: cleanEnv(home, { SERVICE_BASE_URL: dev.ready.base_url, SERVICE_PASSWORD: USER.password }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    const answered = new Promise<void>((resolve) => child.stdout.on('data', () => stdout.includes('\n') && resolve()));
    await Promise.race([answered, exited]);
    // The argv as the OS shows it to other users.
    const cmdline = (await readFile(`/proc/${child.pid}/cmdline`, 'utf8')).split('\0').join(' ').trim();
    assert.match(cmdline, /mcp proxy$/);
    for (const secret of [USER.password, ...tokens]) assert.ok(!cmdline.includes(secret), 'a secret is in the argv');
    child.stdin.end();
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    assert.equal(await exited, 0);
    clearTimeout(killer);
    const lines = stdout.split('\n').filter((line) => line !== '');
    assert.equal(lines.length, 1, stdout);
    const answer = JSON.parse(lines[0]!);
    assert.equal(answer.id, 1);
    assert.equal(answer.result.serverInfo.name !== undefined, true);
    assert.match(await dev.waitForStderr(/DELETE \/mcp 200/), /DELETE \/mcp 200/);
  });

  it('fails at once (exit 4, nothing on stdout) when there is no token and nothing to log in with', async () => {
    const home = await tempDir();
    const result = await spawnCli(['mcp', 'proxy'], {
      home,
      openStdin: true,
      env: { SERVICE_BASE_URL: dev.ready.base_url },
      timeoutMs: 10_000,
    });
    assert.equal(result.timedOut, false);
    assert.equal(result.code, 4, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /not logged in to .* and svcctl has no email to log in again/);
    // The way to log in again by itself where there is a keychain, else why there is none (relogin-hints.test.ts).
    assert.match(result.stderr, /svcctl login --save --remember-password|this machine has no OS keychain/);
  });
});
