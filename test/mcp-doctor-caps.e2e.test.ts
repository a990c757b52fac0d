/**
 * `mcp doctor`'s HTTP probes follow the rule of every request (issue 13): an
 * answer that never ends is cut at 1 MiB (memory stays flat), and one that
 * trickles ends at --timeout. The servers are raw sockets on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { startHostileServer, type Misbehaviour } from './helpers/hostile-server.js';
import { runCliMeasured } from './helpers/peak-rss.js';
import { tempDir } from './helpers/temp-dirs.js';

async function doctorAgainst(how: Misbehaviour) {
  const server = await startHostileServer(how);
  try {
    const folder = await tempDir();
    const config = join(folder, 'mcp.json');
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: { service: { url: `${server.baseUrl}/mcp`, headers: { Authorization: 'Bearer a.b.c' } } },
      }),
    );
    return await runCliMeasured(['mcp', 'doctor', '--client', 'cursor', '--config', config, '--timeout', '2'], {});
  } finally {
    await server.close();
  }
}

test('an endless 200 answer to initialize: exit 8 saying the answer was too large, memory flat', async () => {
  const run = await doctorAgainst({ kind: 'flood', status: 200, chunked: true });
  assert.equal(run.code, 8, run.stdout + run.stderr);
  assert.match(run.stdout, /✗ initialize: .*the answer was larger than 1024 KiB/);
  assert.ok(run.peakMiB < 150, `peak ${run.peakMiB} MiB`);
});

test('an answer that trickles: exit 8 within --timeout (2 s) plus start-up', async () => {
  const run = await doctorAgainst({ kind: 'trickle', status: 200 });
  assert.equal(run.code, 8, run.stdout + run.stderr);
  assert.match(run.stdout, /✗ initialize: /);
  assert.ok(run.elapsedMs < 2_000 + 8_000, `took ${run.elapsedMs} ms`);
});
