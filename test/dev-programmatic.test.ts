/** startSandbox() in-process, as `mcp doctor` tests and the demo use it. */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startSandbox } from '../src/sandbox/sandbox-server.js';
import { httpRequest } from './helpers/dev-sandbox.js';
import { tempDir } from './helpers/temp-dirs.js';

const portIsFree = (port: number): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });

describe('startSandbox()', () => {
  it('serves at once, logs through the given function, and frees its port on close()', async () => {
    const lines: string[] = [];
    const sandbox = await startSandbox({
      users: [{ email: 'ci@example.com', password: 'ci-pw' }],
      webhooks: [{ name: 'ci', ingestToken: 'ing-ci-token' }],
      log: (line) => lines.push(line),
    });
    const { base_url, mcp_url, ...rest } = sandbox.readyLine() as { base_url: string; mcp_url: string };
    assert.match(base_url, /^http:\/\/127\.0\.0\.1:\d+\/api$/);
    assert.equal(mcp_url, base_url.replace(/\/api$/, '/mcp'));
    assert.deepEqual(rest, {
      users: [{ email: 'ci@example.com', password: 'ci-pw' }],
      webhooks: [{ name: 'ci', ingest_token: 'ing-ci-token', hmac_secret: null }],
    });
    const id = '6f1c2a4e-8b7d-4c3e-9f0a-1b2c3d4e5f60';
    const sent = await httpRequest(`${sandbox.baseUrl}/v1/event`, {
      body: JSON.stringify({ event: { id, title: 'in-process', created_at: '2026-11-22T02:31:00Z' } }),
      headers: { 'content-type': 'application/json', authorization: 'Bearer ing-ci-token' },
    });
    assert.equal(sent.status, 202);
    assert.equal(sandbox.store.get(id.toUpperCase())?.webhook, 'ci', 'ids are compared without case');
    const wrongHost = await httpRequest(`${sandbox.baseUrl}/v1/user/login`, {
      body: '{}',
      headers: { host: 'attacker.example', 'content-type': 'application/json' },
    });
    assert.equal(wrongHost.status, 421);
    await sandbox.close();
    assert.ok(lines.some((line) => / POST \/api\/v1\/event 202 /.test(line)));
    await portIsFree(Number(new URL(sandbox.baseUrl).port));
  });

  it('an events file named after the port that cannot be opened: the start fails and the port is free again', async () => {
    const notAFolder = join(await tempDir('svcctl-sandbox-file-'), 'plain-file');
    await writeFile(notAFolder, 'a file, not a folder\n');
    let port: number | undefined;
    await assert.rejects(
      startSandbox({
        eventsFile: (listening) => {
          port = listening;
          return join(notAFolder, `events-${listening}.ndjson`);
        },
      }),
    );
    assert.ok(port !== undefined && port > 0, 'the file was asked for once the port was known');
    await portIsFree(port);
  });
});
