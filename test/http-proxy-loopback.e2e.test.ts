/**
 * Loopback is never proxied, also where svcctl talks through Node's own fetch (the MCP SDK in `mcp proxy` and
 * `mcp doctor`): Node 22 and 24 send fetch through HTTP_PROXY when NODE_USE_ENV_PROXY=1, which Node reads when
 * the process starts, so these run the built CLI as a process. Node 20 does not, and passes either way; run
 * with `bash scripts/test-node-matrix.sh test/http-proxy-loopback.e2e.test.ts` for 22 and 24. The proxy is a
 * recorder on 127.0.0.1 that answers 502 to everything; the MCP server is the sandbox on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { runCli, spawnCli } from './helpers/cli.js';
import { startDev, type DevServer } from './helpers/dev-sandbox.js';
import { startProxy } from './helpers/mcp-proxy.js';
import { tempDir } from './helpers/temp-dirs.js';

const USER = { email: 'loopback-user@example.com', password: 'l00pback-Pa55word' };

describe('Node fetch with NODE_USE_ENV_PROXY=1: loopback still goes direct', () => {
  let dev: DevServer;
  let recorder: Server;
  const seen: string[] = [];
  let env: Record<string, string>;
  before(async () => {
    dev = await startDev(['--user', `${USER.email}:${USER.password}`]);
    recorder = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      req.resume();
      res.writeHead(502).end();
    });
    recorder.on('connect', (req, socket) => {
      seen.push(`CONNECT ${req.url}`);
      socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    const proxy = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
    env = {
      SERVICE_BASE_URL: dev.ready.base_url,
      SERVICE_EMAIL: USER.email,
      SERVICE_PASSWORD: USER.password,
      NODE_USE_ENV_PROXY: '1',
      HTTP_PROXY: proxy,
      HTTPS_PROXY: proxy,
      NO_PROXY: '',
    };
  });
  after(async () => {
    recorder.closeAllConnections();
    await new Promise((resolve) => recorder.close(resolve));
    await dev?.stop();
  });

  it('event send and login (node:http, Node may proxy its global agent): straight to the sandbox', async () => {
    const home = await tempDir('svcctl-loopback-e2e-');
    const webhook = dev.ready.webhooks[0]!;
    const send = await spawnCli(['event', 'send', '--title', 'x', '--retries', '0'], {
      home,
      env: {
        ...env,
        SERVICE_INGEST_TOKEN: webhook.ingest_token,
        ...(webhook.hmac_secret ? { SERVICE_HMAC_SECRET: webhook.hmac_secret } : {}),
      },
    });
    assert.equal(send.code, 0, send.stderr);
    const login = await spawnCli(['login'], { home, env });
    assert.equal(login.code, 0, login.stderr);
    assert.deepEqual(seen, []);
  });

  it('mcp proxy --auth password: the password headers reach the sandbox, not the proxy', async () => {
    const home = await tempDir('svcctl-loopback-e2e-');
    const proxy = await startProxy(['--auth', 'password'], { home, env });
    try {
      const { tools } = await proxy.client.listTools();
      assert.ok(tools.length > 0, proxy.stderr());
    } finally {
      await proxy.close();
    }
    assert.deepEqual(seen, []);
  });

  it('mcp doctor: the remote entry is tried on the sandbox, not through the proxy', async () => {
    const home = await tempDir('svcctl-loopback-e2e-');
    const install = await runCli(['mcp', 'install', '--client', 'cursor', '--mode', 'remote'], { home, env });
    assert.equal(install.code, 0, install.stderr);
    const doctor = await spawnCli(['mcp', 'doctor', '--client', 'cursor', '--timeout', '10'], { home, env });
    assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
    assert.deepEqual(seen, []);
  });
});
