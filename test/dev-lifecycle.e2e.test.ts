/**
 * `svcctl dev` as a process: its defaults, its ready line, a clean stop on
 * SIGTERM (exit 0) and Ctrl+C (exit 130), a taken port, bad flags, and an
 * events file that survives a restart.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { makeTempDir } from './helpers/cli.js';
import { httpRequest, runDevExpectingExit, spawnDev } from './helpers/dev-sandbox.js';

function unsignedEvent(id: string): string {
  return JSON.stringify({ event: { id, title: 'restart', created_at: '2026-11-22T02:31:00Z', payload: '{}' } });
}

describe('svcctl dev: process lifecycle', () => {
  it('without flags: one demo user and one signed demo webhook, with fresh secrets on every start', async () => {
    const [a, b] = await Promise.all([spawnDev(), spawnDev()]);
    try {
      for (const dev of [a, b]) {
        assert.match(dev.ready.base_url, /^http:\/\/127\.0\.0\.1:\d+\/api$/);
        assert.equal(dev.ready.mcp_url, dev.ready.base_url.replace(/\/api$/, '/mcp'));
        assert.equal(dev.ready.users.length, 1);
        assert.equal(dev.ready.webhooks.length, 1);
        assert.equal(typeof dev.ready.webhooks[0]!.hmac_secret, 'string');
        // The ready line comes only after listening: the server answers at once.
        assert.equal(
          (await httpRequest(`${new URL(dev.ready.base_url).origin}/.well-known/openid-configuration`)).status,
          200,
        );
      }
      assert.notEqual(a.ready.base_url, b.ready.base_url);
      assert.notEqual(a.ready.users[0]!.password, b.ready.users[0]!.password);
      assert.notEqual(a.ready.webhooks[0]!.ingest_token, b.ready.webhooks[0]!.ingest_token);
      assert.notEqual(a.ready.webhooks[0]!.hmac_secret, b.ready.webhooks[0]!.hmac_secret);
      assert.equal(a.stdout().split('\n').filter(Boolean).length, 1, 'stdout holds the ready line only');
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('SIGTERM stops it cleanly with exit 0, even with an MCP session open; Ctrl+C (SIGINT) with exit 130', async () => {
    const term = await spawnDev();
    const int = await spawnDev();
    const user = term.ready.users[0]!;
    const client = new Client({ name: 'svcctl-test', version: '1.0.0' });
    const headers = { 'X-Service-Email': user.email, 'X-Service-Password': user.password };
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(term.ready.mcp_url), { requestInit: { headers } }),
      );
      await client.listTools();
    } catch (error) {
      await Promise.all([term.stop(), int.stop()]); // a failed session must not leave both servers running
      throw error;
    }
    const [byTerm, byInt] = await Promise.all([term.stop('SIGTERM'), int.stop('SIGINT')]);
    assert.deepEqual(byTerm, { code: 0, signal: null });
    assert.deepEqual(byInt, { code: 130, signal: null });
    assert.match(term.stderr(), /stopping \(SIGTERM\)…\n[^]*stopped\n$/);
    assert.ok(!/at .*\.js:\d+/.test(int.stderr()), 'no stack trace');
    await client.close();
  });

  it('keeps the events file across a restart', async () => {
    const dir = await makeTempDir('svcctl-dev-restart-');
    const eventsFile = join(dir, 'events.ndjson');
    try {
      const first = await spawnDev(['--webhook', 'open', '--events-file', eventsFile]);
      const id = randomUUID();
      const headers = {
        'content-type': 'application/json',
        authorization: `Bearer ${first.ready.webhooks[0]!.ingest_token}`,
      };
      assert.equal(
        (await httpRequest(`${first.ready.base_url}/v1/event`, { body: unsignedEvent(id), headers })).status,
        202,
      );
      assert.deepEqual(await first.stop('SIGTERM'), { code: 0, signal: null });
      const lines = (await readFile(eventsFile, 'utf8')).split('\n').filter(Boolean);
      assert.deepEqual(
        lines.map((l) => JSON.parse(l).event.id),
        [id],
      );

      const second = await spawnDev(['--webhook', 'open', '--events-file', eventsFile]);
      try {
        const again = await httpRequest(`${second.ready.base_url}/v1/event`, {
          body: unsignedEvent(id),
          headers: { ...headers, authorization: `Bearer ${second.ready.webhooks[0]!.ingest_token}` },
        });
        assert.equal(again.status, 200, 'the id is known after the restart');
        assert.match(second.stderr(), /1 earlier event read back/);
      } finally {
        await second.stop();
      }
      assert.equal((await readFile(eventsFile, 'utf8')).split('\n').filter(Boolean).length, 1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a taken port is a clear error with exit 2 and nothing on stdout', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const result = await runDevExpectingExit(['--port', String(port)]);
      assert.equal(result.code, 2);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
      assert.match(result.stderr, /--port 0/);
    } finally {
      blocker.close();
    }
  });

  it('an --events-file that cannot be used is exit 2 in words, never a bare ENOENT or EISDIR', async () => {
    const dir = await makeTempDir('svcctl-dev-events-');
    try {
      const folder = await runDevExpectingExit(['--events-file', dir]);
      assert.equal(folder.code, 2);
      assert.equal(folder.stdout, '');
      assert.match(
        folder.stderr,
        new RegExp(
          `^error: --events-file: ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is a folder, not a file$`,
          'm',
        ),
      );
      const noFolder = await runDevExpectingExit(['--events-file', join(dir, 'missing', 'events.ndjson')]);
      assert.equal(noFolder.code, 2);
      assert.match(
        noFolder.stderr,
        /cannot write --events-file '.*\/missing\/events\.ndjson': its folder does not exist$/m,
      );
      for (const result of [folder, noFolder]) assert.ok(!/\bE[A-Z]{3,}\b/.test(result.stderr), result.stderr);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('bad flag values are usage errors (exit 2)', async () => {
    for (const args of [
      ['--user', 'not-an-email:pw'],
      ['--user', 'a@example.com:'],
      ['--webhook', 'bad name'],
      ['--port', '70000'],
      ['--user', 'a@example.com:x', '--user', 'A@example.com:y'],
    ]) {
      const result = await runDevExpectingExit(args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.equal(result.stdout, '');
    }
  });
});
