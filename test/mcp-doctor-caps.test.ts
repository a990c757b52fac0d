/**
 * `mcp doctor`'s HTTP probes follow the rule of every request: an answer that never ends is cut at 1 MiB (svcctl
 * stops reading, so memory stays flat), and one that trickles ends at --timeout. The servers are raw sockets on
 * 127.0.0.1; doctor runs in-process, and what the server could send before the reader stopped bounds its memory.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { type Misbehaviour, startHostileServer } from './helpers/hostile-server.js';
import { tempDir } from './helpers/temp-dirs.js';

const MiB = 1024 * 1024;

async function doctorAgainst(how: Misbehaviour) {
  const server = await startHostileServer(how);
  try {
    const folder = await tempDir();
    const config = join(folder, 'mcp.json');
    const mcpServers = { service: { url: `${server.baseUrl}/mcp`, headers: { Authorization: 'Bearer a.b.c' } } };
    await writeFile(config, JSON.stringify({ mcpServers }));
    const started = Date.now();
    const run = await runCli([
      'mcp',
      'doctor',
      '--client',
      'cursor',
      '--config',
      config,
      '--trust-project',
      '--timeout',
      '2',
    ]);
    const elapsedMs = Date.now() - started;
    return { ...run, elapsedMs, sentBytes: server.sentBytes() };
  } finally {
    await server.close();
  }
}

describe('mcp doctor against a hostile server', () => {
  it('an endless 200 answer to initialize: exit 8 saying the answer was too large, memory flat', async () => {
    const run = await doctorAgainst({ kind: 'flood', status: 200, chunked: true });
    assert.equal(run.code, 8, run.stdout + run.stderr);
    assert.match(run.stdout, /✗ initialize: .*the answer was larger than 1024 KiB/);
    // Memory stays flat because reading stops: the server could send the cap plus what the sockets' buffers
    // hold (~4 MiB here); a reader without the cap takes in over 50 MiB before the timeout, even sharing this
    // process's event loop with the server.
    assert.ok(run.sentBytes < 16 * MiB, `the server could send ${Math.round(run.sentBytes / MiB)} MiB`);
  });

  it('an answer that trickles: exit 8 within --timeout (2 s) plus slack for a loaded machine', async () => {
    const run = await doctorAgainst({ kind: 'trickle', status: 200 });
    assert.equal(run.code, 8, run.stdout + run.stderr);
    assert.match(run.stdout, /✗ initialize: /);
    assert.ok(run.elapsedMs < 2_000 + 8_000, `took ${run.elapsedMs} ms`);
  });
});
