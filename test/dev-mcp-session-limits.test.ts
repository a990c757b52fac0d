/**
 * The sandbox's MCP sessions are bounded per user and in all: abandoned
 * sessions (a client that reconnects in a loop) never pile up, the least
 * recently used one goes first, and a session of another user is closed only
 * when the total limit is reached. Driven by raw initialize requests against
 * startSandbox() in-process, so the count can be read directly.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type Sandbox } from '../src/sandbox/sandbox-server.js';
import { httpRequest } from './helpers/dev-sandbox.js';

const ALICE = { email: 'alice@example.com', password: 'alice-pw' };
const BOB = { email: 'bob@example.com', password: 'bob-pw' };
const headersOf = (user: { email: string; password: string }, sessionId?: string): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'x-service-email': user.email,
  'x-service-password': user.password,
  ...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' } : {}),
});

describe('svcctl dev: MCP session limits', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ users: [ALICE, BOB], mcpSessionsPerUser: 3, mcpSessionsTotal: 5 });
  });
  after(() => sandbox.close());

  async function initialize(user: { email: string; password: string }): Promise<string> {
    const answer = await httpRequest(sandbox.mcpUrl, {
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
      headers: headersOf(user),
    });
    assert.equal(answer.status, 200, answer.body);
    const id = answer.headers['mcp-session-id'];
    assert.equal(typeof id, 'string');
    return id as string;
  }
  async function listStatus(user: { email: string; password: string }, sessionId: string): Promise<number> {
    const answer = await httpRequest(sandbox.mcpUrl, {
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      headers: headersOf(user, sessionId),
    });
    return answer.status;
  }

  it('one user abandoning 200 sessions holds at most 3 open; the newest work, the oldest are gone', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      ids.push(await initialize(ALICE));
      assert.ok((await sandbox.mcpSessionCount(ALICE.email)) <= 3);
    }
    assert.equal(await sandbox.mcpSessionCount(ALICE.email), 3);
    for (const id of ids.slice(-3)) assert.equal(await listStatus(ALICE, id), 200);
    assert.equal(await listStatus(ALICE, ids[0]!), 404);
    assert.equal(await listStatus(ALICE, ids.at(-4)!), 404);
  });

  it('the least recently used session of the user goes first, not the oldest created', async () => {
    const [a, b, c] = [await initialize(ALICE), await initialize(ALICE), await initialize(ALICE)];
    assert.equal(await listStatus(ALICE, a), 200); // a is now the most recently used
    const d = await initialize(ALICE);
    assert.equal(await listStatus(ALICE, b), 404, 'b was used longest ago');
    for (const id of [a, c, d]) assert.equal(await listStatus(ALICE, id), 200);
  });

  it('the total limit closes the least recently used session of anyone; a session id of another user is 404', async () => {
    const bobFirst = await initialize(BOB);
    const bobSecond = await initialize(BOB);
    // Alice holds 3, Bob 2: the total of 5 is reached; one more of Bob's closes Alice's least recently used.
    assert.equal(await sandbox.mcpSessionCount(), 5);
    await initialize(BOB);
    assert.equal(await sandbox.mcpSessionCount(), 5);
    assert.equal(await sandbox.mcpSessionCount(ALICE.email), 2);
    assert.equal(await listStatus(BOB, bobFirst), 200);
    assert.equal(await listStatus(ALICE, bobSecond), 404, "Bob's session id under Alice's credentials");
  });
});
