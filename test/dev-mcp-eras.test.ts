/**
 * `svcctl dev` /mcp in both MCP protocol eras (--protocol both, the default;
 * 2025-11-25; 2026-07-28): a client on the SDK v2 pinned to 2026-07-28, one
 * negotiating (`auto`), and the v1 SDK client, which speaks only 2025.
 * The same tools and the same credential checks in both eras.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SdkError, SdkHttpError } from '@modelcontextprotocol/client';
import { startSandbox, type Sandbox } from '../src/sandbox/sandbox-server.js';
import { httpRequest, startDev, type DevServer } from './helpers/dev-sandbox.js';
import { connectAs } from './helpers/mcp-eras.js';

const ALICE = { email: 'alice@example.com', password: 'alice-pw' };
const TOOLS = ['get_event', 'list_events', 'whoami'];
const passwordHeaders = { 'X-Service-Email': ALICE.email, 'X-Service-Password': ALICE.password };

async function loginToken(baseUrl: string): Promise<string> {
  const answer = await httpRequest(`${baseUrl}/v1/user/login`, {
    body: JSON.stringify(ALICE),
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(answer.status, 200, answer.body);
  return JSON.parse(answer.body).access_token;
}

describe('svcctl dev --protocol both (default): one URL, both eras', () => {
  let dev: DevServer;
  before(async () => {
    dev = await startDev(['--user', `${ALICE.email}:${ALICE.password}`]);
  });
  after(async () => dev?.stop());

  it('serves a client pinned to 2026-07-28: same tools, password headers and bearer tokens checked', async () => {
    const modern = await connectAs('pinned-2026', dev.ready.mcp_url, passwordHeaders);
    assert.equal(modern.era, 'modern');
    assert.equal(modern.version, '2026-07-28');
    assert.deepEqual(await modern.listTools(), TOOLS);
    assert.deepEqual(JSON.parse(await modern.callText('whoami')), { email: ALICE.email, auth_method: 'password' });
    await modern.close();

    const token = await loginToken(dev.ready.base_url);
    const bearer = await connectAs('pinned-2026', dev.ready.mcp_url, { Authorization: `Bearer ${token}` });
    assert.deepEqual(JSON.parse(await bearer.callText('whoami')), { email: ALICE.email, auth_method: 'bearer' });
    await bearer.close();
    await dev.waitForStderr(/alice@example\.com \(bearer token sha256:[0-9a-f]{12}\) 2026-07-28 tools\/call/);
    assert.doesNotMatch(dev.stderr(), new RegExp(token.slice(-20)));
  });

  it('answers a wrong password or token 401 in the 2026 era too, as an auth failure (not a version question)', async () => {
    const attempts: Array<Record<string, string>> = [
      { ...passwordHeaders, 'X-Service-Password': 'wrong' },
      { Authorization: 'Bearer not-a-token' },
    ];
    for (const headers of attempts) {
      const error = await connectAs('pinned-2026', dev.ready.mcp_url, headers).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(error instanceof SdkHttpError, String(error));
      assert.equal((error as SdkHttpError).status, 401);
    }
  });

  it('serves the 2025 client (initialize, session) and a negotiating client lands on 2026-07-28', async () => {
    const legacy = await connectAs('legacy-v1', dev.ready.mcp_url, passwordHeaders);
    assert.equal(legacy.version, '2025-11-25');
    assert.deepEqual(await legacy.listTools(), TOOLS);
    assert.deepEqual(JSON.parse(await legacy.callText('whoami')), { email: ALICE.email, auth_method: 'password' });
    await legacy.close();
    const auto = await connectAs('auto', dev.ready.mcp_url, passwordHeaders);
    assert.equal(auto.version, '2026-07-28');
    await auto.close();
  });
});

describe('svcctl dev --protocol 2026-07-28: a stateless-only server', () => {
  let dev: DevServer;
  before(async () => {
    dev = await startDev(['--user', `${ALICE.email}:${ALICE.password}`, '--protocol', '2026-07-28']);
  });
  after(async () => dev?.stop());

  it('serves the pinned client and refuses the 2025 handshake with "Unsupported protocol version"', async () => {
    const modern = await connectAs('pinned-2026', dev.ready.mcp_url, passwordHeaders);
    assert.deepEqual(await modern.listTools(), TOOLS);
    await modern.close();
    const error = await connectAs('legacy-v1', dev.ready.mcp_url, passwordHeaders).then(
      () => undefined,
      (e: unknown) => e as Error & { code?: unknown },
    );
    assert.equal(error?.code, 400);
    assert.match(String(error), /Unsupported protocol version: 2025-11-25/);
  });
});

describe('svcctl dev --protocol 2025-11-25: a 2025-only server', () => {
  let dev: DevServer;
  before(async () => {
    dev = await startDev(['--user', `${ALICE.email}:${ALICE.password}`, '--protocol', '2025-11-25']);
  });
  after(async () => dev?.stop());

  it('serves the 2025 client; a negotiating client falls back to initialize; a pinned one is refused', async () => {
    const legacy = await connectAs('legacy-v1', dev.ready.mcp_url, passwordHeaders);
    assert.deepEqual(await legacy.listTools(), TOOLS);
    await legacy.close();
    const auto = await connectAs('auto', dev.ready.mcp_url, passwordHeaders);
    assert.equal(auto.era, 'legacy');
    assert.deepEqual(await auto.listTools(), TOOLS);
    await auto.close();
    const error = await connectAs('pinned-2026', dev.ready.mcp_url, passwordHeaders).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof SdkError, String(error));
    assert.match((error as Error).message, /did not offer pinned protocol version 2026-07-28/);
  });
});

describe('startSandbox: per-user tracking by email in both eras', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ users: [ALICE] });
  });
  after(async () => sandbox?.close());

  it("counts each user's requests per era, by email, with no protocol session in the 2026 era", async () => {
    const upper = { ...passwordHeaders, 'X-Service-Email': ALICE.email.toUpperCase() };
    const modern = await connectAs('pinned-2026', sandbox.mcpUrl, upper);
    await modern.listTools();
    await modern.close();
    assert.equal(await sandbox.mcpSessionCount(ALICE.email), 0);
    const legacy = await connectAs('legacy-v1', sandbox.mcpUrl, passwordHeaders);
    await legacy.listTools();
    assert.equal(await sandbox.mcpSessionCount(ALICE.email), 1);
    await legacy.close();
    const activity = await sandbox.mcpUserActivity(ALICE.email);
    // 2026: discover + tools/list; 2025: initialize, initialized, tools/list (and DELETE at the end).
    assert.equal(activity?.requests['2026'], 2);
    assert.ok((activity?.requests['2025'] ?? 0) >= 3, JSON.stringify(activity));
  });
});
