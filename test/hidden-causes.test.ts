/**
 * The cause of a failure is said without --verbose, once, with what to do:
 * a flush while the service is down, a batch stopped by rejected credentials
 * or by a base URL with no event endpoint (404), a command that does not exist.
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { startRecordingServer } from './helpers/recording-server.js';
import { tempDir } from './helpers/temp-dirs.js';

const lines = (count: number): string =>
  `${Array.from({ length: count }, (_, i) => JSON.stringify({ title: `t${i}` })).join('\n')}\n`;
const answering = (status: number) => () => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: '{"error":"nope"}',
});

describe('causes said once, without --verbose', () => {
  it('event flush while the service is down names why the events stay', async () => {
    const home = await tempDir('svcctl-causes-');
    const spool = join(home, 'spool');
    await mkdir(spool, { mode: 0o700 });
    const id = '0b9e2c5e-4a8f-4f1e-9a39-6c2f3d1b7e12';
    await writeFile(
      join(spool, `${id}.json`),
      JSON.stringify({ event: { id, title: 't', created_at: '2026-11-24T00:00:00.000Z' } }),
    );
    const result = await runCli(['event', 'flush', '--spool', spool, '--retries', '0', '--legacy-to-current'], {
      home,
      env: { SERVICE_BASE_URL: 'http://127.0.0.1:9/api', SERVICE_INGEST_TOKEN: 'ingest-token-1234' },
    });
    assert.equal(result.code, 6, result.stderr);
    assert.match(result.stderr, /1 event\(s\) could not be delivered and stay in .*spool: connection refused/);
  });

  for (const [status, code, cause, hint] of [
    [401, 4, /the service rejected the credentials \(HTTP 401\)/, /hint: check the ingest token/],
    [404, 5, /nothing at this address takes events \(HTTP 404\)/, /hint: check the base URL/],
  ] as const) {
    it(`a batch answered ${status} stops with one line saying so and what to check`, async () => {
      const server = await startRecordingServer(answering(status));
      try {
        const result = await runCli(['event', 'send', '--ndjson', '-', '--concurrency', '8'], {
          input: lines(40),
          env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 'ingest-token-1234' },
        });
        assert.equal(result.code, code, result.stderr);
        const errors = result.stderr.split('\n').filter((line) => line.startsWith('error:'));
        assert.equal(errors.length, 1, result.stderr);
        assert.match(errors[0]!, /^error: the batch stopped at line \d+ /);
        assert.match(errors[0]!, cause);
        assert.match(result.stderr, hint);
        assert.ok(server.requests.length < 40, 'the batch stopped early');
      } finally {
        await server.close();
      }
    });
  }

  it('a single event answered 404 says to check the base URL', async () => {
    const server = await startRecordingServer(answering(404));
    try {
      const result = await runCli(['event', 'send', '--title', 't'], {
        env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 'ingest-token-1234' },
      });
      assert.equal(result.code, 5, result.stderr);
      assert.match(
        result.stderr,
        /hint: check the base URL: it must be the API base of the deployment, ending in \/api/,
      );
    } finally {
      await server.close();
    }
  });

  it('event run -- a command that does not exist: exit 127, said in words', async () => {
    const result = await runCli(['event', 'run', '--dry-run', '--', 'no-such-command-here'], {
      env: { SERVICE_BASE_URL: 'http://127.0.0.1:9/api', SERVICE_INGEST_TOKEN: 'ingest-token-1234' },
    });
    assert.equal(result.code, 127, result.stderr);
    assert.match(result.stderr, /cannot run 'no-such-command-here': no such command \(not found on PATH/);
    assert.doesNotMatch(result.stderr, /ENOENT|spawn/);
  });
});
