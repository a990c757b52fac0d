/**
 * `svcctl mcp proxy`'s tokens, in-process against the sandbox: a token that expires is replaced before it is
 * sent (the proxy and the sandbox share a clock the test moves), and a token the service refuses is replaced
 * after the 401, in the same session. The sandbox log (a hash of the bearer token and the session id per
 * request) shows which token each request carried.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { placeFile, runCli } from './helpers/cli.js';
import { startDev, type DevServer } from './helpers/dev-sandbox.js';
import { makeJwt, nowPlus } from './helpers/jwt.js';
import { mcpLogLines } from './helpers/mcp-proxy.js';
import { startProxyInProcess } from './helpers/mcp-proxy-in-process.js';
import { tempDir } from './helpers/temp-dirs.js';

const USER = { email: 'proxy-user@example.com', password: 'pr0xy-Pa55word' };
const TOOLS = ['get_event', 'list_events', 'whoami'];

async function savedTokens(home: string): Promise<string[]> {
  const file = JSON.parse(await readFile(join(home, '.config', 'svcctl', 'credentials.json'), 'utf8'));
  return Object.values(file.tokens as Record<string, { access_token: string }>).map((entry) => entry.access_token);
}

/** A temp HOME where `svcctl login --save` has saved a token of this sandbox. */
async function loggedInHome(dev: DevServer, now?: () => Date): Promise<string> {
  const home = await tempDir();
  const login = await runCli(['login', '--save', '--email', USER.email], {
    home,
    env: { SERVICE_BASE_URL: dev.ready.base_url, SERVICE_PASSWORD: USER.password },
    ...(now ? { now } : {}),
  });
  assert.equal(login.code, 0, login.stderr);
  return home;
}

describe('svcctl mcp proxy against svcctl dev --token-ttl 2, on a clock the test moves', () => {
  let dev: DevServer;
  // Time stands still unless the test moves it: on a loaded machine real seconds would expire a 2 s token
  // between the proxy's check and the sandbox's. A whole second, as JWT times are.
  let clockMs = Math.floor(Date.now() / 1000) * 1000;
  const now = (): Date => new Date(clockMs);
  before(async () => {
    dev = await startDev(['--token-ttl', '2', '--user', `${USER.email}:${USER.password}`], { now });
  });
  after(async () => {
    await dev?.stop();
  });

  it('keeps working after the token expired: a new token before it is sent, the same mcp-session-id', async () => {
    const home = await loggedInHome(dev, now);
    const [first] = await savedTokens(home);
    const logStart = dev.stderr().length;
    const proxy = await startProxyInProcess([], {
      home,
      env: { SERVICE_BASE_URL: dev.ready.base_url, SERVICE_PASSWORD: USER.password },
      now,
    });
    try {
      assert.deepEqual((await proxy.client.listTools()).tools.map((tool) => tool.name).sort(), TOOLS);
      clockMs += 2600; // past the 2 s lifetime of every token issued so far
      assert.deepEqual((await proxy.client.listTools()).tools.map((tool) => tool.name).sort(), TOOLS);
      const whoami = (await proxy.client.callTool({ name: 'whoami', arguments: {} })) as {
        content: Array<{ text: string }>;
      };
      assert.deepEqual(JSON.parse(whoami.content[0]!.text), { email: USER.email, auth_method: 'bearer' });
    } finally {
      assert.equal(await proxy.close(), 0, proxy.stderr());
    }
    const log = dev.stderr().slice(logStart);
    // The proxy's clock says the token expired: a request it forwards gets the new token before it is sent, never
    // a refusal first. (The transport's own event stream, a GET, may still be opened with the old one and refused.)
    assert.doesNotMatch(log, / POST \/mcp 401 /);
    const lines = mcpLogLines(log).filter((entry) => entry.session !== undefined);
    const shown = lines.map((e) => e.line).join('\n');
    assert.ok(lines.length >= 4, log);
    assert.equal(new Set(lines.map((entry) => entry.session)).size, 1, `more than one session:\n${shown}`);
    assert.ok(new Set(lines.map((entry) => entry.token)).size >= 2, `no new token:\n${shown}`);
    assert.ok(
      lines.every((entry) => / (200|202) /.test(entry.line)),
      `a request went with an expired token:\n${shown}`,
    );
    const [latest] = await savedTokens(home);
    assert.notEqual(latest, first, 'the new token is saved');
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
    const proxy = await startProxyInProcess([], {
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
});
