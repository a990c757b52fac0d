import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, runCli } from './helpers/cli.js';
import { startRecordingServer, type RecordingServer } from './helpers/recording-server.js';

describe('https to a plain-http port is explained in words', () => {
  let dir: string;
  let server: RecordingServer;
  let env: Record<string, string>;
  before(async () => {
    dir = await makeTempDir();
    server = await startRecordingServer();
    const { port } = new URL(server.origin);
    env = { SERVICE_BASE_URL: `https://127.0.0.1:${port}/api`, SERVICE_INGEST_TOKEN: 'tok-tls' };
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  const expected = (): string => `the server at 127.0.0.1:${new URL(server.origin).port} did not answer TLS (is it plain http? try http://)`;

  it('one event (Node http client): no OpenSSL text, not retried', async () => {
    const result = await runCli(['event', 'send', '--title', 'x'], { env });
    assert.equal(result.code, 6, result.stderr);
    assert.ok(result.stderr.includes(expected()), result.stderr);
    assert.doesNotMatch(result.stderr, /EPROTO|wrong version number|retrying/);
  });

  it('a batch (undici pool): the same words for each line', async () => {
    const file = join(dir, 'two.ndjson');
    await writeFile(file, '{"title":"a"}\n{"title":"b"}\n');
    const result = await runCli(['event', 'send', '--ndjson', file], { env });
    assert.equal(result.code, 6, result.stderr); // a failure every line would meet stops the batch
    assert.ok(result.stderr.includes(expected()), result.stderr);
    assert.doesNotMatch(result.stderr, /EPROTO|wrong version number/);
  });
});
