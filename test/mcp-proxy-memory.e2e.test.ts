/**
 * `svcctl mcp proxy` against a hostile MCP server (issue 47, "`mcp proxy` has no memory bound"), as the process a
 * client starts, its memory measured (VmHWM of /proc/<pid>/status, Linux): a refusal with a body of 200 MB, one SSE
 * `data:` line of 200 MB and a JSON answer of 200 MB are each cut at their cap and the pending `tools/list` gets a
 * JSON-RPC error naming it. (A client that does not read stdout: mcp-proxy-backpressure.test.ts, in-process, since on
 * Linux a process's stdout pipe blocks the whole proxy instead.)
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { after, describe, it } from 'node:test';
import { BIN, cleanEnv } from './helpers/cli.js';
import { startHostileMcpServer, type HostileMcpServer, type McpMisbehaviour } from './helpers/hostile-mcp-server.js';
import { vmHwmKiB } from './helpers/peak-rss.js';
import { pollUntil } from './helpers/poll.js';
import { tempDir } from './helpers/temp-dirs.js';

const MB = 1024 * 1024;
const FLOOD = 200 * MB;
/** Growth of the proxy's peak memory from its start-up to the end: the caps are 64 KiB and 8 MiB of text. */
const MAX_GROWTH_MIB = 64;
const LINUX = process.platform === 'linux' ? false : 'VmHWM is read from /proc';

interface RawProxy {
  child: ChildProcessWithoutNullStreams;
  /** Answers (messages with an id) the proxy wrote on stdout. */
  answers: Array<{ id?: unknown; error?: { message: string }; result?: unknown }>;
  stdoutBytes(): number;
  notifications(): number;
  stderr(): string;
  send(message: object): void;
  peakMiB(): Promise<number>;
  end(): Promise<number | null>;
}

/** The proxy with a client of raw JSON-RPC lines: it reads stdout only while `reading` says so. */
async function startRawProxy(url: string): Promise<RawProxy> {
  const home = await tempDir();
  const child = spawn(process.execPath, [BIN, 'mcp', 'proxy', '--auth', 'password'], {
    cwd: home,
    env: cleanEnv(home, { SERVICE_MCP_URL: url, SERVICE_EMAIL: 'mem@example.com', SERVICE_PASSWORD: 'mem-Pa55word' }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const answers: RawProxy['answers'] = [];
  let bytes = 0;
  let notifications = 0;
  let partial = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdout.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line.includes('"notifications/message"')) notifications += 1;
      else if (line.trim() !== '') answers.push(JSON.parse(line));
    }
  });
  const exit = new Promise<number | null>((resolve) => child.once('close', resolve));
  return {
    child,
    answers,
    stdoutBytes: () => bytes,
    notifications: () => notifications,
    stderr: () => stderr,
    send: (message) => child.stdin.write(`${JSON.stringify(message)}\n`),
    peakMiB: async () => Math.round((await vmHwmKiB(child.pid!)) / 1024),
    end: async () => {
      child.stdin.end();
      return exit;
    },
  };
}

async function initialized(proxy: RawProxy): Promise<void> {
  proxy.send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  await pollUntil(
    () => `no answer to initialize: ${proxy.stderr()}`,
    () => proxy.answers.some((a) => a.id === 1),
    { withinMs: 15_000 },
  );
  proxy.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
}

const servers: HostileMcpServer[] = [];
after(async () => {
  for (const server of servers) await server.close();
});

async function cutAnswer(how: McpMisbehaviour): Promise<{ message: string; growth: number; sent: number }> {
  const server = await startHostileMcpServer(how, FLOOD);
  servers.push(server);
  const proxy = await startRawProxy(server.url);
  await initialized(proxy);
  const start = await proxy.peakMiB();
  proxy.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
  const answer = await pollUntil(
    () => `no answer to tools/list (server sent ${server.sentBytes()} bytes): ${proxy.stderr()}`,
    () => proxy.answers.find((a) => a.id === 2),
    { withinMs: 20_000 },
  );
  const peak = await proxy.peakMiB();
  assert.equal(await proxy.end(), 0, proxy.stderr());
  assert.ok(answer.error, `an error answer, got ${JSON.stringify(answer).slice(0, 300)}`);
  return { message: answer.error.message, growth: peak - start, sent: server.sentBytes() };
}

describe('svcctl mcp proxy against a hostile MCP server: every answer capped', { skip: LINUX }, () => {
  it('a 500 with a 200 MB body: the body is read up to 64 KiB, and tools/list gets an error naming that cap', async () => {
    const { message, growth, sent } = await cutAnswer('refusal-flood');
    assert.match(message, /^svcctl mcp proxy: .*the refusal was larger than 64 KiB/);
    assert.ok(growth < MAX_GROWTH_MIB, `the proxy grew by ${growth} MiB`);
    assert.ok(sent < FLOOD, `the proxy read all ${sent} bytes of the refusal`);
  });

  it('one SSE data: line of 200 MB: cut at 8 MiB, tools/list gets an error naming that cap', async () => {
    const { message, growth, sent } = await cutAnswer('sse-line');
    assert.match(message, /^svcctl mcp proxy: .*8 MiB/);
    assert.ok(growth < MAX_GROWTH_MIB, `the proxy grew by ${growth} MiB`);
    assert.ok(sent < FLOOD, `the proxy read all ${sent} bytes of the line`);
  });

  it('a JSON answer of 200 MB: cut at 8 MiB, tools/list gets an error naming that cap', async () => {
    const { message, growth, sent } = await cutAnswer('json-flood');
    assert.match(message, /^svcctl mcp proxy: .*8 MiB/);
    assert.ok(growth < MAX_GROWTH_MIB, `the proxy grew by ${growth} MiB`);
    assert.ok(sent < FLOOD, `the proxy read all ${sent} bytes of the answer`);
  });
});
