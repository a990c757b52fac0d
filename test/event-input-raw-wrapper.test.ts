import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, runCli } from './helpers/cli.js';
import { startRecordingServer, type RecordingServer } from './helpers/recording-server.js';

const EVENT = '{"id":"6f1c2a4e-8b7d-4c3e-9f0a-1b2c3d4e5f60","title":"x","created_at":"2026-11-22T02:31:00.000Z"}';
const WRAPPER = /with --raw the body must be \{"event": \{\.\.\.\}\} \(without --raw a bare event is wrapped for you\)/;

describe('event send --raw: the body must be {"event": {...}}', () => {
  let dir: string;
  let server: RecordingServer;
  let env: Record<string, string>;
  before(async () => {
    dir = await makeTempDir();
    server = await startRecordingServer();
    env = { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 'tok-raw' };
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a bare event with --raw is exit 3 and nothing is sent', async () => {
    const file = join(dir, 'bare.json');
    await writeFile(file, EVENT);
    const result = await runCli(['event', 'send', file, '--raw'], { env });
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, WRAPPER);
    assert.equal(server.requests.length, 0);
  });

  it('the same bare event without --raw is wrapped and sent', async () => {
    const file = join(dir, 'bare.json');
    await writeFile(file, EVENT);
    const result = await runCli(['event', 'send', file], { env });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(server.requests.length, 1);
    assert.equal(JSON.parse(server.requests[0]!.body.toString()).event.title, 'x');
  });

  it('an NDJSON line with a bare event under --raw fails with its line number; wrapped lines are sent byte for byte', async () => {
    const file = join(dir, 'raw.ndjson');
    const wrapped = `{"event":${EVENT}}`;
    await writeFile(file, `${wrapped}\n${EVENT}\n`);
    const before = server.requests.length;
    const result = await runCli(['event', 'send', '--ndjson', file, '--raw', '--retries', '0'], { env });
    assert.equal(result.code, 9, result.stderr);
    assert.match(result.stderr, new RegExp(`line 2: ${WRAPPER.source}`));
    assert.equal(server.requests.length, before + 1);
    assert.equal(server.requests[before]!.body.toString(), wrapped);
  });
});
