/**
 * A redirect is the server's to give, not a way around the origin rule (issue 47): the deployment's MCP endpoint
 * answering 307 to another origin must not carry the token nor the password headers (--auth password) there. fetch
 * alone would follow it with the request's custom headers; the MCP SDK's client follows only a redirect on the same
 * origin (its redirectPolicy 'same-origin'), which this guards (it held when attacked). A redirect on the same origin
 * (/mcp → /mcp/, as servers mounted under a path answer) still works. Two recording servers on 127.0.0.1 are two
 * origins.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startProxyStreams } from './helpers/mcp-proxy-in-process.js';
import { pollUntil } from './helpers/poll.js';
import {
  startRecordingServer,
  type RecordingServer,
  type Responder,
  type ScriptedResponse,
} from './helpers/recording-server.js';
import { saveToken } from './helpers/saved-token.js';
import { tempDir } from './helpers/temp-dirs.js';

const TOKEN = 'saved-deployment-token-7d2e41';
const PASSWORD = 'deployment-password-c39b0a';

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** A 2025 MCP server at /mcp/ (and everywhere on the other origin); /mcp itself answers 307 to `target()`. */
const serverRedirectingTo =
  (target: () => string): Responder =>
  (request): ScriptedResponse => {
    if (request.method !== 'POST') return { status: 405 };
    if (request.url === '/mcp') return { status: 307, headers: { location: target() } };
    const message = JSON.parse(request.body.toString('utf8')) as { id?: unknown; method?: string };
    if (message.method !== 'initialize') return { status: 202 };
    const result = { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'rec', version: '1' } };
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: message.id, result }),
    };
  };

let redirectTarget = '';
let deployment: RecordingServer;
let elsewhere: RecordingServer;
before(async () => {
  deployment = await startRecordingServer(serverRedirectingTo(() => redirectTarget));
  elsewhere = await startRecordingServer(serverRedirectingTo(() => redirectTarget));
});
after(async () => {
  await deployment?.close();
  await elsewhere?.close();
});

/** One initialize through the proxy; its answer line on stdout, and stderr. */
async function initializeThrough(
  args: string[],
  env: Record<string, string>,
): Promise<{ answer: string; stderr: string }> {
  const home = await tempDir();
  await saveToken(home, deployment.baseUrl, TOKEN);
  const streams = startProxyStreams(args, {
    home,
    env: { SERVICE_BASE_URL: deployment.baseUrl, SERVICE_MCP_URL: `${deployment.origin}/mcp`, ...env },
  });
  let out = '';
  streams.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  streams.stdin.write(`${JSON.stringify(initialize)}\n`);
  const answer = await pollUntil(
    () => `no answer to initialize: ${streams.stderr()}`,
    () => out.split('\n').find((line) => line.includes('"id":1')),
    { withinMs: 10_000 },
  );
  streams.stdin.end();
  assert.equal(await streams.exit, 0, streams.stderr());
  return { answer, stderr: streams.stderr() };
}

describe('svcctl mcp proxy: redirects', () => {
  it('follows none to another origin with the password headers: the client gets an error naming it', async () => {
    redirectTarget = `${elsewhere.origin}/mcp/`;
    const before = elsewhere.requests.length;
    const { answer } = await initializeThrough(['--auth', 'password'], {
      SERVICE_EMAIL: 'sre@example.com',
      SERVICE_PASSWORD: PASSWORD,
    });
    const leaked = elsewhere.requests
      .slice(before)
      .filter((request) => JSON.stringify(request.headers).includes(PASSWORD));
    assert.equal(leaked.length, 0, 'the password went to the other origin');
    assert.match(answer, /"error"/);
    assert.match(answer, new RegExp(`redirect to ${elsewhere.origin}/mcp/ not followed`, 'i'));
    assert.doesNotMatch(answer, new RegExp(PASSWORD));
  });

  it('follows none to another origin with the token', async () => {
    redirectTarget = `${elsewhere.origin}/mcp/`;
    const before = elsewhere.requests.length;
    const { answer } = await initializeThrough([], {});
    assert.equal(elsewhere.requests.length, before, 'a request went to the other origin');
    assert.match(answer, /"error"/);
  });

  it('follows one on the same origin, credentials and all', async () => {
    redirectTarget = `${deployment.origin}/mcp/`;
    const before = deployment.requests.length;
    const { answer } = await initializeThrough([], {});
    assert.match(answer, /"protocolVersion":"2025-11-25"/);
    const followed = deployment.requests.slice(before).find((request) => request.url === '/mcp/');
    assert.equal(followed?.headers.authorization, `Bearer ${TOKEN}`);
  });
});
