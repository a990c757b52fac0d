/**
 * Small SSE events that add up (issue 47's caps, attacked): where the MCP SDK reads a body whole instead of event
 * by event, the per-event cap let it grow without bound, every event being a few bytes. Two such bodies: the 202
 * that accepts a notification, sent as an event stream, and a request's answer under a content type the SDK does
 * not take for an event stream (`text/event-stream, text/plain`: it reads the text, then fails). The proxy must
 * stop reading each at the cap of a whole body (8 MiB), well before the server's 48 MiB, and still answer.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { startHostileMcpServer, type HostileMcpServer } from './helpers/hostile-mcp-server.js';
import { startProxyStreams, type ProxyStreams } from './helpers/mcp-proxy-in-process.js';
import { pollUntil } from './helpers/poll.js';
import { tempDir } from './helpers/temp-dirs.js';

const MB = 1024 * 1024;
const FLOOD = 48 * MB;

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

let server: HostileMcpServer | undefined;
let proxy: ProxyStreams | undefined;
afterEach(async () => {
  proxy?.stdin.end();
  await proxy?.exit;
  await server?.close();
});

async function proxyTo(url: string): Promise<{ streams: ProxyStreams; lines: () => string[] }> {
  const home = await tempDir();
  const streams = startProxyStreams(['--auth', 'password'], {
    home,
    env: { SERVICE_MCP_URL: url, SERVICE_EMAIL: 'sre@example.com', SERVICE_PASSWORD: 'small-events-Pa55' },
  });
  let out = '';
  streams.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  return { streams, lines: () => out.split('\n').filter(Boolean) };
}

describe('svcctl mcp proxy: many small SSE events where the SDK reads a body whole', () => {
  it('a 202 accepting notifications/initialized as an endless stream of small events: cut at 8 MiB', async () => {
    server = await startHostileMcpServer('accepted-events', FLOOD);
    const { streams, lines } = await proxyTo(server.url);
    proxy = streams;
    streams.stdin.write(`${JSON.stringify(initialize)}\n`);
    await pollUntil('no answer to initialize', () => lines().some((line) => line.includes('"id":1')));
    streams.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    const hostile = server;
    await pollUntil(
      () => `the stream neither cut nor ended: ${hostile.sentBytes()} bytes sent`,
      () => hostile.cutShort() || hostile.finished(),
      { withinMs: 20_000 },
    );
    assert.equal(server.finished(), false, `the proxy read all ${FLOOD / MB} MiB of small events`);
    assert.ok(server.sentBytes() < 24 * MB, `${server.sentBytes()} bytes sent`);
  });

  it('an answer of small events the SDK reads as text: cut at 8 MiB, tools/list gets an error', async () => {
    server = await startHostileMcpServer('odd-type-events', FLOOD);
    const { streams, lines } = await proxyTo(server.url);
    proxy = streams;
    streams.stdin.write(`${JSON.stringify(initialize)}\n`);
    await pollUntil('no answer to initialize', () => lines().some((line) => line.includes('"id":1')));
    streams.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
    const answer = await pollUntil(
      () => `no answer to tools/list: ${streams.stderr()}`,
      () => lines().find((line) => line.includes('"id":2')),
      { withinMs: 20_000 },
    );
    assert.equal(server.finished(), false, `the proxy read all ${FLOOD / MB} MiB of small events`);
    assert.match(answer, /"error".*8 MiB/);
  });
});
