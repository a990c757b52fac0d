/**
 * `svcctl dev` remote MCP endpoint, driven by the MCP SDK's own client over
 * Streamable HTTP: password headers (current and legacy), bearer tokens
 * validated through the discovered userinfo endpoint, sessions per user.
 */
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { httpRequest, startDev, type DevServer } from './helpers/dev-sandbox.js';

const ALICE = { email: 'alice@example.com', password: 'alice-pw' };
const BOB = { email: 'bob@example.com', password: 'bob-pw' };
const SECRET = 'mcp-test-secret';

interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
}

describe('svcctl dev: /mcp', () => {
  let dev: DevServer;
  const open: Connected[] = [];

  before(async () => {
    dev = await startDev([
      '--user',
      `${ALICE.email}:${ALICE.password}`,
      '--user',
      `${BOB.email}:${BOB.password}`,
      '--webhook',
      `hooks:${SECRET}`,
    ]);
  });
  after(async () => {
    await Promise.allSettled(open.map((c) => c.client.close()));
    await dev?.stop();
  });

  async function connect(headers: Record<string, string>, sessionId?: string): Promise<Connected> {
    const client = new Client({ name: 'svcctl-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(dev.ready.mcp_url), {
      requestInit: { headers },
      ...(sessionId ? { sessionId } : {}),
    });
    await client.connect(transport);
    open.push({ client, transport });
    return { client, transport };
  }
  async function callJson(
    client: Client,
    name: string,
    args: Record<string, unknown> = {},
  ): Promise<{ isError: boolean; value: any }> {
    const result = (await client.callTool({ name, arguments: args })) as {
      isError?: boolean;
      content: Array<{ type: string; text: string }>;
    };
    return { isError: result.isError === true, value: JSON.parse(result.content[0]!.text) };
  }
  async function loginToken(user: { email: string; password: string }): Promise<string> {
    const answer = await httpRequest(`${dev.ready.base_url}/v1/user/login`, {
      body: JSON.stringify(user),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(answer.status, 200, answer.body);
    return JSON.parse(answer.body).access_token;
  }
  async function sendEvent(title: string): Promise<string> {
    const id = randomUUID();
    const body = JSON.stringify({
      event: { id, title, created_at: new Date().toISOString(), investigate: true, payload: '{"source":"test"}' },
    });
    const answer = await httpRequest(`${dev.ready.base_url}/v1/event`, {
      body,
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${dev.ready.webhooks[0]!.ingest_token}`,
        'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
      },
    });
    assert.equal(answer.status, 202, answer.body);
    return id;
  }
  const count = (pattern: RegExp): number =>
    dev
      .stderr()
      .split('\n')
      .filter((line) => pattern.test(line)).length;

  it('authenticates by X-Service-Email/X-Service-Password and serves whoami, list_events, get_event', async () => {
    const first = await sendEvent('first');
    const second = await sendEvent('second');
    const { client } = await connect({ 'X-Service-Email': ALICE.email, 'X-Service-Password': ALICE.password });
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    assert.deepEqual(tools, ['get_event', 'list_events', 'whoami']);
    assert.deepEqual((await callJson(client, 'whoami')).value, { email: ALICE.email, auth_method: 'password' });

    const listed = (await callJson(client, 'list_events', { limit: 1 })).value;
    assert.equal(listed.total, 2);
    assert.deepEqual(
      listed.events.map((e: any) => e.event.id),
      [second],
    );
    const all = (await callJson(client, 'list_events')).value;
    assert.deepEqual(
      all.events.map((e: any) => e.event.id),
      [second, first],
    );
    assert.equal(all.events[0].webhook, 'hooks');

    const found = await callJson(client, 'get_event', { id: first });
    assert.equal(found.value.event.title, 'first');
    const missing = await callJson(client, 'get_event', { id: randomUUID() });
    assert.equal(missing.isError, true);
  });

  it('accepts the legacy X-Svc-Email/X-Svc-Password headers', async () => {
    const { client } = await connect({ 'X-Svc-Email': BOB.email, 'X-Svc-Password': BOB.password });
    assert.deepEqual((await callJson(client, 'whoami')).value, { email: BOB.email, auth_method: 'legacy-password' });
  });

  it('answers a wrong password with 401, a JSON-RPC error body and WWW-Authenticate', async () => {
    const answer = await httpRequest(dev.ready.mcp_url, {
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      }),
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'X-Service-Email': ALICE.email,
        'X-Service-Password': 'wrong',
      },
    });
    assert.equal(answer.status, 401);
    assert.match(String(answer.headers['www-authenticate']), /^Bearer realm=/);
    const body = JSON.parse(answer.body);
    assert.equal(body.jsonrpc, '2.0');
    assert.equal(body.id, null);
    assert.equal(body.error.message, 'invalid email or password');
    await assert.rejects(
      connect({ 'X-Service-Email': ALICE.email, 'X-Service-Password': 'wrong' }),
      (error: { code?: number; message: string }) =>
        error.code === 401 && /invalid email or password/.test(error.message),
    );
    const none = await httpRequest(dev.ready.mcp_url, { body: '{}', headers: { 'content-type': 'application/json' } });
    assert.equal(none.status, 401);
    assert.ok(!dev.stderr().includes(ALICE.password), 'a password is in the log');
  });

  it('validates a bearer token through the userinfo endpoint discovered from its issuer', async () => {
    const discoveriesBefore = count(/GET \/\.well-known\/openid-configuration 200/);
    const token = await loginToken(ALICE);
    const { client } = await connect({ Authorization: `Bearer ${token}` });
    assert.deepEqual((await callJson(client, 'whoami')).value, { email: ALICE.email, auth_method: 'bearer' });
    await dev.waitForStderr(/GET \/userinfo 200 .*alice@example\.com/);
    assert.ok(count(/GET \/\.well-known\/openid-configuration 200/) - discoveriesBefore <= 1);

    const invalid = await httpRequest(dev.ready.mcp_url, {
      body: '{}',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token.slice(0, -2)}xx` },
    });
    assert.equal(invalid.status, 401);
    assert.match(String(invalid.headers['www-authenticate']), /error="invalid_token"/);
  });

  it('keeps the session when the token is refreshed, and validates the new token', async () => {
    const first = await connect({ Authorization: `Bearer ${await loginToken(BOB)}` });
    const sessionId = first.transport.sessionId;
    assert.ok(sessionId);
    await callJson(first.client, 'whoami');
    const userinfoCalls = count(/GET \/userinfo 200 .*bob@example\.com/);

    const refreshed = await loginToken(BOB);
    const second = await connect({ Authorization: `Bearer ${refreshed}` }, sessionId);
    assert.deepEqual((await callJson(second.client, 'whoami')).value, { email: BOB.email, auth_method: 'bearer' });
    assert.equal(second.transport.sessionId, sessionId);
    await dev.waitForStderr(new RegExp(`(?:GET /userinfo 200 .*bob@example\\.com[^]*){${userinfoCalls + 1}}`));

    // The same session id under another user's credentials is unknown.
    const foreign = await httpRequest(dev.ready.mcp_url, {
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'X-Service-Email': ALICE.email,
        'X-Service-Password': ALICE.password,
      },
    });
    assert.equal(foreign.status, 404);
  });

  it('serves many clients of one user at once: password, bearer, and bearer with a refreshed token', async () => {
    const password = await connect({ 'X-Service-Email': ALICE.email, 'X-Service-Password': ALICE.password });
    const bearer = await connect({ Authorization: `Bearer ${await loginToken(ALICE)}` });
    const beforeRefresh = await connect({ Authorization: `Bearer ${await loginToken(ALICE)}` });
    // The third client goes on with a refreshed token in the same session.
    const refreshed = await connect(
      { Authorization: `Bearer ${await loginToken(ALICE)}` },
      beforeRefresh.transport.sessionId,
    );
    const sessions = new Set([password, bearer, refreshed].map((c) => c.transport.sessionId));
    assert.equal(sessions.size, 3, 'three sessions');
    // Every one works after all of them have connected.
    for (const [client, method] of [
      [password.client, 'password'],
      [bearer.client, 'bearer'],
      [refreshed.client, 'bearer'],
    ] as const) {
      assert.equal((await client.listTools()).tools.length, 3);
      assert.deepEqual((await callJson(client, 'whoami')).value, { email: ALICE.email, auth_method: method });
    }
    // And once more in the first order, so no later initialize closed an earlier session.
    assert.deepEqual((await callJson(password.client, 'whoami')).value, {
      email: ALICE.email,
      auth_method: 'password',
    });
  });
});

describe('svcctl dev --one-session-per-user', () => {
  let dev: DevServer;
  const open: Client[] = [];
  before(async () => {
    dev = await startDev(['--user', `${ALICE.email}:${ALICE.password}`, '--one-session-per-user']);
  });
  after(async () => {
    await Promise.allSettled(open.map((client) => client.close()));
    await dev?.stop();
  });

  it('a new initialize of the same user closes the earlier session (404), another user is not affected', async () => {
    const connect = async (): Promise<Connected> => {
      const client = new Client({ name: 'svcctl-test', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(dev.ready.mcp_url), {
        requestInit: { headers: { 'X-Service-Email': ALICE.email, 'X-Service-Password': ALICE.password } },
      });
      await client.connect(transport);
      open.push(client);
      return { client, transport };
    };
    const older = await connect();
    const newer = await connect();
    assert.notEqual(older.transport.sessionId, newer.transport.sessionId);
    await assert.rejects(
      older.client.listTools(),
      (error: { code?: number; message: string }) => error.code === 404 && /Session not found/.test(error.message),
    );
    assert.equal((await newer.client.listTools()).tools.length, 3);
  });
});
