/**
 * The token `login --save` keeps for one deployment goes only to that deployment's origin (issue 47): an MCP URL on
 * another origin (SERVICE_MCP_URL, from a project's .envrc say) is refused, exit 2 with the reason and the way out,
 * before a byte is sent; `--auth bearer` given in so many words sends it there, with a warning. Another path on the
 * deployment's own origin needs nothing. Two recording servers on 127.0.0.1 (two ports: two origins) see each request.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { startProxyStreams } from './helpers/mcp-proxy-in-process.js';
import { pollUntil } from './helpers/poll.js';
import { startRecordingServer, type RecordingServer, type Responder } from './helpers/recording-server.js';
import { saveToken } from './helpers/saved-token.js';
import { tempDir } from './helpers/temp-dirs.js';

const TOKEN = 'saved-deployment-token-1f3a9c';

/** Answers initialize as a 2025 MCP server; 202 to anything else posted, 405 to the event stream's GET. */
const mcpServer: Responder = (request) => {
  if (request.method !== 'POST') return { status: 405 };
  const message = JSON.parse(request.body.toString('utf8')) as { id?: unknown; method?: string };
  if (message.method !== 'initialize') return { status: 202 };
  const result = { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'recorder', version: '1' } };
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: message.id, result }),
  };
};

/** The proxy's first request to `mcpUrl`, after an initialize from a client. */
async function firstRequest(
  server: RecordingServer,
  mcpUrl: string,
  args: string[],
): Promise<{ authorization?: string; stderr: string }> {
  const home = await tempDir();
  await saveToken(home, deployment.baseUrl, TOKEN);
  const streams = startProxyStreams(args, {
    home,
    env: { SERVICE_BASE_URL: deployment.baseUrl, SERVICE_MCP_URL: mcpUrl },
  });
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };
  streams.stdin.write(`${JSON.stringify(initialize)}\n`);
  const seen = await pollUntil(
    () => `no request reached ${mcpUrl}: ${streams.stderr()}`,
    () => server.requests.find((request) => request.method === 'POST'),
    { withinMs: 15_000 },
  );
  streams.stdin.end();
  assert.equal(await streams.exit, 0, streams.stderr());
  return { authorization: seen.headers.authorization, stderr: streams.stderr() };
}

let deployment: RecordingServer;
let elsewhere: RecordingServer;
before(async () => {
  deployment = await startRecordingServer(mcpServer);
  elsewhere = await startRecordingServer(mcpServer);
});
after(async () => {
  await deployment?.close();
  await elsewhere?.close();
});

describe('svcctl mcp proxy: the saved token goes only to its deployment origin', () => {
  it('refuses an MCP URL on another origin without --auth: exit 2, why and what to do, nothing sent', async () => {
    const home = await tempDir();
    await saveToken(home, deployment.baseUrl, TOKEN);
    const run = await runCli(['mcp', 'proxy'], {
      home,
      env: { SERVICE_BASE_URL: deployment.baseUrl, SERVICE_MCP_URL: `${elsewhere.origin}/mcp` },
    });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, new RegExp(`not on the deployment's origin \\(${deployment.origin}\\)`));
    assert.match(run.stderr, /--auth bearer/);
    assert.doesNotMatch(run.stderr + run.stdout, new RegExp(TOKEN));
    assert.equal(elsewhere.requests.length, 0);
  });

  it('sends it to another origin when --auth bearer is given, and says so on stderr', async () => {
    const seen = await firstRequest(elsewhere, `${elsewhere.origin}/mcp`, ['--auth', 'bearer']);
    assert.equal(seen.authorization, `Bearer ${TOKEN}`);
    assert.match(seen.stderr, new RegExp(`is sent to ${elsewhere.origin}, another origin`));
  });

  it('needs nothing for another path on the deployment origin', async () => {
    const seen = await firstRequest(deployment, `${deployment.origin}/v2/mcp`, []);
    assert.equal(seen.authorization, `Bearer ${TOKEN}`);
    assert.doesNotMatch(seen.stderr, /another origin/);
  });
});
