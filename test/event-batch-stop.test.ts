/**
 * The paths of a batch that few runs take: a batch stopped by rejected credentials still gives every line after
 * the stop its result line ('skipped') and its place in --failed-out; warnings stop being repeated after twenty.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { eventLines } from './helpers/event-lines.js';
import { accepted, startRecordingServer } from './helpers/recording-server.js';
import { tempDir } from './helpers/temp-dirs.js';

const TOKEN = 'ingest-token-batch-stop';

describe('event send --ndjson: a stopped batch and many warnings', () => {
  it('credentials rejected at line 11: lines 12 to 30 are skipped, each with a result line and in --failed-out', async () => {
    const server = await startRecordingServer((request, index) =>
      index < 10
        ? accepted(request, index)
        : { status: 401, headers: { 'content-type': 'application/json' }, body: '{"error":"bad token"}' },
    );
    const dir = await tempDir('svcctl-batch-stop-');
    try {
      const lines = eventLines(30);
      const input = join(dir, 'batch.ndjson');
      await writeFile(input, `${lines.join('\n')}\n`);
      const failedOut = join(dir, 'failed.ndjson');
      const result = await runCli(
        ['event', 'send', '--ndjson', input, '--concurrency', '1', '--failed-out', failedOut, '--json'],
        { env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN } },
      );
      assert.equal(result.code, 4, result.stderr);
      assert.equal(server.requests.length, 11, 'nothing is sent after the rejection');
      const results = result.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      assert.deepEqual(
        results.map((r) => r.line),
        Array.from({ length: 30 }, (_, i) => i + 1),
        'one result line for each input line, in input order',
      );
      assert.deepEqual(
        results.slice(0, 10).map((r) => [r.outcome, r.status]),
        Array.from({ length: 10 }, () => ['sent', 202]),
      );
      assert.equal(results[10].status, 401);
      assert.notEqual(results[10].outcome, 'skipped', 'the rejected line is not one of the skipped');
      for (const skipped of results.slice(11)) {
        assert.deepEqual(
          { outcome: skipped.outcome, id: skipped.id, status: skipped.status, attempts: skipped.attempts },
          { outcome: 'skipped', id: null, status: null, attempts: 0 },
        );
        assert.equal(skipped.error, 'not sent: the batch stopped');
      }
      assert.equal(await readFile(failedOut, 'utf8'), `${lines.slice(10).join('\n')}\n`);
    } finally {
      await server.close();
    }
  });

  it('25 lines with an unknown member: 20 warnings, then one line saying more are not shown', async () => {
    const server = await startRecordingServer();
    try {
      const input = Array.from({ length: 25 }, (_, i) => JSON.stringify({ event: { title: `t${i}` }, extra: i }));
      const result = await runCli(['event', 'send', '--ndjson', '-', '--concurrency', '4'], {
        input: `${input.join('\n')}\n`,
        env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN },
      });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(server.requests.length, 25, 'a warning does not keep a line from being sent');
      const warned = result.stderr.split('\n').filter((line) => line.includes('extra: unknown top-level member'));
      assert.equal(warned.length, 20, result.stderr);
      assert.equal(result.stderr.split('more warnings are not shown').length - 1, 1, result.stderr);
    } finally {
      await server.close();
    }
  });
});
