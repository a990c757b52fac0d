/**
 * `svcctl mcp proxy` in front of a client that does not read its stdout (issue 47): the server's notifications without
 * end wait in the server's socket, not in the proxy. The proxy runs in-process with a PassThrough as stdout, as a
 * pipe to a client is on most systems (on Linux a process's stdout pipe blocks the proxy's every write instead, so
 * a process would show nothing). Once the client reads, every notification arrives, then the answer.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startHostileMcpServer, type HostileMcpServer } from './helpers/hostile-mcp-server.js';
import { startProxyStreams, type ProxyStreams } from './helpers/mcp-proxy-in-process.js';
import { pollUntil } from './helpers/poll.js';
import { tempDir } from './helpers/temp-dirs.js';

const MB = 1024 * 1024;
const TOTAL = 16 * MB;

interface Reader {
  answers: Array<{ id?: unknown; result?: unknown; error?: unknown }>;
  notifications(): number;
}

function readLines(streams: ProxyStreams): Reader {
  const answers: Reader['answers'] = [];
  let notifications = 0;
  let partial = '';
  streams.stdout.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line.includes('"notifications/message"')) notifications += 1;
      else if (line.trim() !== '') answers.push(JSON.parse(line));
    }
  });
  return { answers, notifications: () => notifications };
}

const send = (streams: ProxyStreams, message: object): boolean => streams.stdin.write(`${JSON.stringify(message)}\n`);

let server: HostileMcpServer | undefined;
after(async () => {
  await server?.close();
});

describe('svcctl mcp proxy: a client that does not read stdout stops the HTTP stream', () => {
  it('holds well under 1 MB of 16 MB of notifications, then passes all of them on, in order, once read', async () => {
    server = await startHostileMcpServer('notifications', TOTAL);
    const home = await tempDir();
    const streams = startProxyStreams(['--auth', 'password'], {
      home,
      env: { SERVICE_MCP_URL: server.url, SERVICE_EMAIL: 'bp@example.com', SERVICE_PASSWORD: 'bp-Pa55word' },
    });
    const reader = readLines(streams);
    send(streams, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await pollUntil(
      () => `no answer to initialize: ${streams.stderr()}`,
      () => reader.answers.some((a) => a.id === 1),
      { withinMs: 15_000 },
    );
    send(streams, { jsonrpc: '2.0', method: 'notifications/initialized' });
    const rssBefore = process.memoryUsage().rss;
    streams.stdout.pause();
    send(streams, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    // Where the proxy stops reading, the server's count stops moving; a proxy that reads everything lets it finish.
    const seen: number[] = [];
    await pollUntil(
      'the server never stopped sending',
      () => {
        seen.push(server!.sentBytes());
        const [a, b, c] = seen.slice(-3);
        return server!.finished() || (a !== undefined && a > 0 && a === b && b === c);
      },
      { withinMs: 20_000, everyMs: 100 },
    );
    const held = streams.stdout.writableLength + streams.stdout.readableLength;
    const grown = (process.memoryUsage().rss - rssBefore) / MB;
    assert.ok(!server.finished(), `the proxy read all ${server.sentBytes()} bytes for a client that reads nothing`);
    assert.ok(held < MB, `${held} bytes wait in the proxy's stdout`);
    assert.ok(grown < 64, `the test process grew by ${grown.toFixed(1)} MiB`);
    assert.ok(streams.stdout.listenerCount('drain') <= 1, `${streams.stdout.listenerCount('drain')} drain listeners`);
    streams.stdout.resume();
    await pollUntil(
      () => `tools/list never answered after ${reader.notifications()} notifications: ${streams.stderr().slice(-500)}`,
      () => reader.answers.find((a) => a.id === 2),
      { withinMs: 30_000 },
    );
    assert.equal(reader.notifications(), server.notificationsSent());
    streams.stdin.end();
    assert.equal(await streams.exit, 0, streams.stderr());
  });
});
