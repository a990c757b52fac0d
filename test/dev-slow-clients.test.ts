/**
 * The sandbox treats its own clients with the care svcctl expects of a
 * server: trickling requests are cut off at the request time limit, the
 * number of connections is bounded, and --max-body is enforced while reading.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { startSandbox } from '../src/sandbox/sandbox-server.js';
import { runCli } from './helpers/cli.js';

const TOKEN = 'ing-slow-clients-4f1';

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('svcctl dev and slow or greedy clients', () => {
  it('200 connections trickling their headers are closed within the limit; a normal event send still succeeds', async () => {
    const limitMs = 1500;
    const sandbox = await startSandbox({ webhooks: [{ name: 'ci', ingestToken: TOKEN }], requestTimeoutMs: limitMs });
    const port = Number(new URL(sandbox.origin).port);
    const sockets: Socket[] = [];
    const timers: NodeJS.Timeout[] = [];
    const env = { SERVICE_BASE_URL: sandbox.baseUrl, SERVICE_INGEST_TOKEN: TOKEN };
    try {
      // svcctl runs in this event loop: its first run loads (and compiles) its modules, which would pause the
      // sandbox's timers; the run under test is the second.
      assert.equal((await runCli(['event', 'send', '--title', 'before the trickle'], { env })).code, 0);
      const started = Date.now();
      const closedAt: Promise<number>[] = [];
      for (let i = 0; i < 200; i++) {
        const socket = await open(port);
        socket.on('error', () => undefined);
        sockets.push(socket);
        closedAt.push(new Promise((resolve) => socket.once('close', () => resolve(Date.now() - started))));
        const head = `POST /api/v1/event HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-slow: ${'a'.repeat(100)}`;
        let sent = 0;
        timers.push(
          setInterval(() => !socket.destroyed && sent < head.length && socket.write(head[sent++] as string), 1000),
        );
      }
      const send = await runCli(['event', 'send', '--title', 'while others trickle', '--timeout', '5'], { env });
      assert.equal(send.code, 0, send.stderr);
      const times = await Promise.all(closedAt);
      // Node checks the open requests every ¼ of the limit: all closed well before the trickle could end (100+ s).
      assert.ok(
        Math.max(...times) < limitMs + 10_000,
        `last trickling connection closed after ${Math.max(...times)} ms`,
      );
      assert.ok(Math.min(...times) >= limitMs - 100, 'no connection is closed before the limit');
      assert.equal(sandbox.store.size, 2, 'the normal events were stored');
    } finally {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      await sandbox.close();
    }
  });

  it('a chunked 10 MB body above --max-body is answered 413 before it is all sent', async () => {
    const limit = 256 * 1024;
    const sandbox = await startSandbox({ webhooks: [{ name: 'ci', ingestToken: TOKEN }], maxBodyBytes: limit });
    const port = Number(new URL(sandbox.origin).port);
    const socket = await open(port);
    socket.on('error', () => undefined);
    try {
      socket.write(
        `POST /api/v1/event HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
          'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
      );
      let answer = '';
      let written = 0;
      const chunk = Buffer.concat([Buffer.from('10000\r\n'), Buffer.alloc(0x10000, 'x'), Buffer.from('\r\n')]);
      const answered = new Promise<number>((resolve) =>
        socket.on('data', (data: Buffer) => {
          answer += data.toString('latin1');
          if (answer.includes('\r\n\r\n')) resolve(written);
        }),
      );
      const total = 10 * 1024 * 1024;
      const pump = setInterval(() => {
        if (written >= total || socket.destroyed) return clearInterval(pump);
        socket.write(chunk);
        written += 0x10000;
      }, 5);
      const writtenWhenAnswered = await answered;
      clearInterval(pump);
      assert.match(answer, /^HTTP\/1\.1 413 /);
      assert.ok(writtenWhenAnswered < total / 2, `413 came after ${writtenWhenAnswered} bytes`);
    } finally {
      socket.destroy();
      await sandbox.close();
    }
  });
});
