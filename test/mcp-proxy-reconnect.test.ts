/**
 * A server that ends its event stream at once and says `retry: 0` (issue 47's hostile server, attacked): the MCP
 * SDK reconnects a stream that ended without an error at its first attempt again, with the server's delay as given,
 * so the proxy asked again at once, for ever (72 GETs in 2 s measured in-process, ~0.5 s of CPU; with a stream cut at
 * the 8 MiB cap, 8 MiB and a log line each time). The proxy waits at least a second before a reconnection, twice as
 * long after each one that brought no message. The bridge runs here with a scheduler of the test's: the test moves
 * the time, nothing waits for it.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { PassThrough } from 'node:stream';
import { after, describe, it } from 'node:test';
import { runBridge } from '../src/mcp/proxy/bridge.js';
import { listenOnLoopback } from './helpers/loopback.js';
import { pollUntil } from './helpers/poll.js';

let gets = 0;
const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => {
    body += chunk.toString('utf8');
  });
  request.on('end', () => {
    if (request.method === 'GET') {
      gets += 1;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      return void response.end('retry: 0\n\n');
    }
    if (request.method !== 'POST') return void response.writeHead(405).end();
    const message = JSON.parse(body) as { id?: unknown };
    if (message.id === undefined) return void response.writeHead(202).end();
    const result = { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'quitter', version: '1' } };
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  });
});
after(() => {
  server.closeAllConnections();
  server.close();
});

describe('svcctl mcp proxy: reconnecting an event stream', () => {
  it("waits a second at least, whatever the server's retry: 0, and longer after each empty stream", async () => {
    const { origin } = await listenOnLoopback(server);
    const scheduled: Array<{ ms: number; run: () => void }> = [];
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    const bridge = runBridge({
      url: `${origin}/mcp`,
      fetch: (url, init) => fetch(url, init),
      stdin,
      stdout,
      log: () => undefined,
      redact: (text) => text,
      closeTimeoutMs: 100,
      schedule: (run, ms) => {
        scheduled.push({ ms, run });
        return () => undefined;
      },
    });
    const initialize = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initialize })}\n`);
    await pollUntil('no answer to initialize', () => out.includes('"id":1'));
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    await pollUntil(
      () => `no reconnection scheduled (${gets} GETs)`,
      () => scheduled.length === 1,
    );
    assert.equal(gets, 1);
    assert.ok(scheduled[0]!.ms >= 1000, `${scheduled[0]!.ms} ms`);
    scheduled[0]!.run();
    await pollUntil(
      () => `no second reconnection scheduled (${gets} GETs)`,
      () => scheduled.length === 2,
    );
    assert.equal(gets, 2);
    assert.ok(scheduled[1]!.ms > scheduled[0]!.ms, `${scheduled[1]!.ms} ms after ${scheduled[0]!.ms} ms`);
    stdin.end();
    await bridge;
  });
});
