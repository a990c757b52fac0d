/**
 * `svcctl mcp proxy` against `svcctl dev --token-ttl 2`: the proxy runs as a
 * child process driven over stdio by the MCP SDK client; the tests wait past
 * the token's lifetime and call tools/list again. The sandbox log (one line
 * per request, with a hash of the bearer token and the session id) shows a
 * new token in the same session.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BIN, cleanEnv, placeFile, runCli, spawnCli } from './helpers/cli.js';
import { startDev, type DevServer } from './helpers/dev-sandbox.js';
import { makeJwt, nowPlus } from './helpers/jwt.js';
import { mcpLogLines, startProxy } from './helpers/mcp-proxy.js';
import { tempDir } from './helpers/temp-dirs.js';

const USER = { email: 'proxy-user@example.com', password: 'pr0xy-Pa55word' };
const TOOLS = ['get_event', 'list_events', 'whoami'];
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function savedTokens(home: string): Promise<string[]> {
  const file = JSON.parse(await readFile(join(home, '.config', 'svcctl', 'credentials.json'), 'utf8'));
  return Object.values(file.tokens as Record<string, { access_token: string }>).map((entry) => entry.access_token);
}

/** A temp HOME where `svcctl login --save` has saved a token of this sandbox. */
async function loggedInHome(dev: DevServer): Promise<string> {
  const home = await tempDir();
  const login = await runCli(['login', '--save', '--email', USER.email], {
    home,
    env: { SERVICE_BASE_URL: dev.ready.base_url, SERVICE_PASSWORD: USER.password },
  });
  assert.equal(login.code, 0, login.stderr);
  return home;
}

describe('svcctl mcp proxy against svcctl dev --token-ttl 2', () => {
  let dev: DevServer;
  before(async () => {
    dev = await startDev(['--token-ttl', '2', '--user', `${USER.email}:${USER.password}`]);
  });
  after(async () => {
    await dev?.stop();
  });

  it('keeps working after the token expired: a new token, the same mcp-session-id, no secret in its argv', async () => {
    const home = await loggedInHome(dev);
    const logStart = dev.stderr().length;
    const proxy = await startProxy([], {
      home,
      env: { SERVICE_BASE_URL: dev.ready.base_url, SERVICE_PASSWORD: USER.password },
    });
    try {
      assert.deepEqual((await proxy.client.listTools()).tools.map((tool) => tool.name).sort(), TOOLS);
      const cmdline = await proxy.cmdline();
      assert.match(cmdline, /mcp proxy$/);
      for (const secret of [USER.password, ...(await savedTokens(home))])
        assert.ok(!cmdline.includes(secret), 'a secret is in the proxy argv');

      await sleep(2600); // past the 2 s lifetime of every token issued so far
      assert.deepEqual((await proxy.client.listTools()).tools.map((tool) => tool.name).sort(), TOOLS);
      const whoami = (await proxy.client.callTool({ name: 'whoami', arguments: {} })) as {
        content: Array<{ text: string }>;
      };
      assert.deepEqual(JSON.parse(whoami.content[0]!.text), { email: USER.email, auth_method: 'bearer' });
    } finally {
      await proxy.close();
    }
    const lines = mcpLogLines(dev.stderr().slice(logStart)).filter((entry) => entry.session !== undefined);
    assert.ok(lines.length >= 4, dev.stderr().slice(logStart));
    assert.equal(
      new Set(lines.map((entry) => entry.session)).size,
      1,
      `more than one session:\n${lines.map((e) => e.line).join('\n')}`,
    );
    assert.ok(
      new Set(lines.map((entry) => entry.token)).size >= 2,
      `no new token:\n${lines.map((e) => e.line).join('\n')}`,
    );
    assert.ok(
      lines.every((entry) => / (200|202) /.test(entry.line)),
      lines.map((e) => e.line).join('\n'),
    );
    for (const text of [proxy.stderr(), dev.stderr()]) assert.ok(!text.includes(USER.password));
  });
});

describe('svcctl mcp proxy against svcctl dev (tokens of an hour)', () => {
  let dev: DevServer;
  before(async () => {
    dev = await startDev(['--user', `${USER.email}:${USER.password}`]);
  });
  after(async () => {
    await dev?.stop();
  });

  it('answers a 401 with one new login and sends the request again', async () => {
    const home = await tempDir();
    // A token that looks valid for an hour but that this sandbox did not sign: the service answers 401.
    const foreign = makeJwt({
      iss: new URL(dev.ready.base_url).origin,
      email: USER.email,
      iat: nowPlus(0),
      exp: nowPlus(3600),
    });
    await placeFile(
      home,
      '.config/svcctl/credentials.json',
      JSON.stringify({
        version: 1,
        tokens: {
          [dev.ready.base_url]: {
            access_token: foreign,
            email: USER.email,
            expires_at: null,
            saved_at: new Date().toISOString(),
          },
        },
      }),
    );
    const logStart = dev.stderr().length;
    const proxy = await startProxy([], {
      home,
      env: { SERVICE_BASE_URL: dev.ready.base_url, SERVICE_PASSWORD: USER.password },
    });
    try {
      assert.deepEqual((await proxy.client.listTools()).tools.map((tool) => tool.name).sort(), TOOLS);
    } finally {
      await proxy.close();
    }
    const log = dev.stderr().slice(logStart);
    assert.equal(log.split('\n').filter((line) => / \/mcp 401 /.test(line)).length, 1, log);
    assert.equal(log.split('\n').filter((line) => /\/v1\/user\/login 200/.test(line)).length, 1, log);
    assert.match(proxy.stderr(), /answered 401: getting new credentials/);
    const [saved] = await savedTokens(home);
    assert.notEqual(saved, foreign);
    assert.ok(!proxy.stderr().includes(saved!) && !proxy.stderr().includes(foreign));
  });

  it('writes only JSON-RPC lines on stdout, ends the session and exits 0 when stdin closes', async () => {
    const home = await loggedInHome(dev);
    const logStart = dev.stderr().length;
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
    for (let waited = 0; !stdout.includes('\n') && waited < 10_000; waited += 20) await sleep(20);
    child.stdin.end();
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    assert.equal(await exited, 0);
    clearTimeout(killer);
    const lines = stdout.split('\n').filter((line) => line !== '');
    assert.equal(lines.length, 1, stdout);
    const answer = JSON.parse(lines[0]!);
    assert.equal(answer.id, 1);
    assert.equal(answer.result.serverInfo.name !== undefined, true);
    await dev.waitForStderr(/DELETE \/mcp 200/);
    assert.match(dev.stderr().slice(logStart), /DELETE \/mcp 200/);
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
    assert.match(result.stderr, /svcctl login --save --remember-password/);
  });
});
