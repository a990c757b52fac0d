/**
 * Any local user can reach `svcctl dev`: connections that send half a request header must not keep real
 * requests out. At the connection cap a newcomer takes the place of the connection that has waited longest
 * without a request in flight (src/sandbox/connection-slots.ts), and a header not complete within the header time
 * (2 s by default; set small here) is answered 408 and closed. Sockets from node:net, the sandbox in-process.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { describe, it, mock } from 'node:test';
import { startSandbox } from '../src/sandbox/sandbox-server.js';
import { runCli } from './helpers/cli.js';

const TOKEN = 'ing-connection-slots-7a2';

interface HalfOpen {
  socket: Socket;
  closed: boolean;
  answer: string;
}

/** A connection that sends the start of a request header and never the rest. */
function halfHeader(port: number): Promise<HalfOpen> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const half: HalfOpen = { socket, closed: false, answer: '' };
    socket.on('data', (data: Buffer) => {
      half.answer += data.toString('latin1');
    });
    socket.on('close', () => {
      half.closed = true;
    });
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      socket.write(`POST /api/v1/event HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-half: `);
      resolve(half);
    });
    socket.once('error', reject);
  });
}

/** Polls until the condition holds, failing after `ms`. */
async function eventually(condition: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) assert.fail(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('svcctl dev and connections that never finish their header', () => {
  it('300 half headers against the 256-connection cap: a real request is answered, the oldest halves are closed', async () => {
    // Times far away, so only the cap is at work here.
    const sandbox = await startSandbox({
      webhooks: [{ name: 'ci', ingestToken: TOKEN }],
      requestTimeoutMs: 120_000,
      headersTimeoutMs: 120_000,
    });
    const port = Number(new URL(sandbox.origin).port);
    const env = { SERVICE_BASE_URL: sandbox.baseUrl, SERVICE_INGEST_TOKEN: TOKEN };
    const halves: HalfOpen[] = [];
    try {
      for (let i = 0; i < 300; i++) halves.push(await halfHeader(port));
      const send = await runCli(['event', 'send', '--title', 'past the half headers', '--timeout', '5'], { env });
      assert.equal(send.code, 0, send.stderr);
      assert.equal(sandbox.store.size, 1, 'the real event was stored');
      // 301 connections for 256 places: the 45 oldest halves make room, then one more for the real request.
      await eventually(() => halves.filter((h) => h.closed).length >= 45, 10_000, '45 half headers closed');
      const closed = halves.flatMap((h, i) => (h.closed ? [i] : []));
      assert.ok(
        closed.every((i) => i < 100),
        `the oldest go first: ${closed.filter((i) => i >= 100).join(' ')}`,
      );
      assert.ok(
        halves.slice(-100).every((h) => !h.closed),
        'the newest halves are still open (nothing else closed them)',
      );
    } finally {
      for (const half of halves) half.socket.destroy();
      await sandbox.close();
    }
  });

  it('a request in flight keeps its place while half headers pour in, and a new request still finds one', async () => {
    const sandbox = await startSandbox({
      webhooks: [{ name: 'ci', ingestToken: TOKEN }],
      requestTimeoutMs: 120_000,
      headersTimeoutMs: 120_000,
      maxConnections: 8,
    });
    const port = Number(new URL(sandbox.origin).port);
    const halves: HalfOpen[] = [];
    const body = JSON.stringify({ event: { id: randomUUID(), created_at: new Date().toISOString(), title: 't' } });
    const slow = await halfHeader(port);
    try {
      // Its header completes, its body waits: a request in flight, the oldest connection of all.
      slow.socket.write(
        `1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      await eventually(() => sandbox.store.size === 0 && slow.answer === '' && !slow.closed, 1000, 'sent');
      for (let i = 0; i < 30; i++) halves.push(await halfHeader(port));
      await eventually(() => halves.filter((h) => h.closed).length >= 23, 10_000, '23 half headers closed');
      assert.equal(slow.closed, false, 'the request in flight was not dropped');
      const env = { SERVICE_BASE_URL: sandbox.baseUrl, SERVICE_INGEST_TOKEN: TOKEN };
      const send = await runCli(['event', 'send', '--title', 'past the half headers', '--timeout', '5'], { env });
      assert.equal(send.code, 0, send.stderr);
      slow.socket.write(body);
      await eventually(() => slow.answer.includes('\r\n\r\n'), 10_000, 'the answer to the request in flight');
      assert.match(slow.answer, /^HTTP\/1\.1 202 /);
      assert.equal(sandbox.store.size, 2, 'both events were stored');
    } finally {
      slow.socket.destroy();
      for (const half of halves) half.socket.destroy();
      await sandbox.close();
    }
  });

  it('a header not complete within the header time is answered 408 and closed; complete requests still pass', async () => {
    const sandbox = await startSandbox({ webhooks: [{ name: 'ci', ingestToken: TOKEN }], headersTimeoutMs: 200 });
    const port = Number(new URL(sandbox.origin).port);
    const env = { SERVICE_BASE_URL: sandbox.baseUrl, SERVICE_INGEST_TOKEN: TOKEN };
    const halves: HalfOpen[] = [];
    try {
      for (let i = 0; i < 50; i++) halves.push(await halfHeader(port));
      // The default request time (10 s) is far off: only the header time closes them within this bound.
      await eventually(() => halves.every((h) => h.closed), 5000, 'every half header closed');
      assert.ok(
        halves.every((h) => /^HTTP\/1\.1 408 /.test(h.answer)),
        halves.map((h) => h.answer.split('\r\n')[0]).join(', '),
      );
      const send = await runCli(['event', 'send', '--title', 'after the header time'], { env });
      assert.equal(send.code, 0, send.stderr);
    } finally {
      for (const half of halves) half.socket.destroy();
      await sandbox.close();
    }
  });

  it('stopping closes connections without a request in flight at once, not after the grace for requests', {
    timeout: 10_000,
  }, async () => {
    // Header and request times far off, and the sandbox's timers held still: only the stop itself can close them.
    const sandbox = await startSandbox({ requestTimeoutMs: 120_000, headersTimeoutMs: 120_000 });
    const port = Number(new URL(sandbox.origin).port);
    const half = await halfHeader(port);
    const halfClosed = new Promise((resolve) => half.socket.once('close', resolve));
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const closing = sandbox.close();
      await halfClosed;
      await closing;
      assert.equal(half.answer, '', 'closed without an answer: no request had started');
    } finally {
      mock.timers.reset();
      half.socket.destroy();
    }
  });
});
