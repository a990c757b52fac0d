/**
 * A broken or hostile server can never hang svcctl or blow up its memory:
 * every attempt of the single path, the batch path and login ends at its
 * deadline (--timeout, the whole attempt), and answers are read with a cap.
 * Peak memory is the child's VmHWM (/proc/<pid>/status).
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from './helpers/temp-dirs.js';
import { startHostileServer, type Misbehaviour } from './helpers/hostile-server.js';
import { runCliMeasured, type MeasuredRun } from './helpers/peak-rss.js';

const TIMEOUT_S = 1;
/** Start-up of the CLI on a loaded machine, on top of --timeout + 1 s per attempt. */
const SLACK_MS = 5000;
const MAX_PEAK_MIB = 150;
const LINUX = process.platform === 'linux';

type Path = 'single' | 'batch' | 'login';

async function run(
  path: Path,
  how: Misbehaviour,
  extra: string[] = [],
  timeoutS = TIMEOUT_S,
): Promise<{ run: MeasuredRun; requests: number; sentBytes: number }> {
  const server = await startHostileServer(how);
  try {
    let args: string[];
    const env: Record<string, string> = { SERVICE_BASE_URL: server.baseUrl };
    if (path === 'login') {
      args = ['login', '--timeout', String(timeoutS)];
      Object.assign(env, { SERVICE_EMAIL: 'a@example.com', SERVICE_PASSWORD: 'pw-deadline-77' });
    } else {
      env.SERVICE_INGEST_TOKEN = 'tok-deadline-31';
      args = ['event', 'send', '--timeout', String(timeoutS), '--retries', '0', ...extra];
      if (path === 'single') args.push('--title', 'x');
      else {
        const dir = await tempDir('svcctl-deadline-');
        const input = join(dir, 'batch.ndjson');
        await writeFile(input, '{"title":"a"}\n{"title":"b"}\n');
        args.push('--ndjson', input, '--concurrency', '2');
      }
    }
    const measured = await runCliMeasured(args, env);
    return { run: measured, requests: server.requests, sentBytes: server.sentBytes() };
  } finally {
    await server.close();
  }
}

function assertBounded(result: MeasuredRun, attempts = 1, timeoutS = TIMEOUT_S): void {
  assert.ok(
    result.elapsedMs < attempts * (timeoutS + 1) * 1000 + SLACK_MS,
    `took ${result.elapsedMs} ms: ${result.stderr}`,
  );
  if (LINUX) assert.ok(result.peakMiB > 0 && result.peakMiB < MAX_PEAK_MIB, `peak RSS ${result.peakMiB} MiB`);
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
}

describe('the whole attempt has one deadline (--timeout)', { concurrency: 3 }, () => {
  for (const path of ['single', 'batch', 'login'] as const) {
    it(`${path}: headers, then one byte a second → exit 6 naming the body as slow`, async () => {
      const { run: result } = await run(path, { kind: 'trickle', status: path === 'login' ? 200 : 202 });
      assert.equal(result.code, 6, result.stderr);
      assert.match(result.stderr, /sent the answer's headers but not its body within 1 s/);
      assertBounded(result);
    });
    it(`${path}: no headers at all → exit 6 naming the headers`, async () => {
      const { run: result } = await run(path, { kind: 'silent' });
      assert.equal(result.code, 6, result.stderr);
      assert.match(result.stderr, /did not send the answer's headers within 1 s/);
      assertBounded(result);
    });
    it(`${path}: a 400 with a 300 MB body → rejected, memory flat, the body cut`, async () => {
      const { run: result, sentBytes } = await run(path, { kind: 'flood', status: 400 });
      assert.notEqual(result.code, 0, result.stderr);
      assert.notEqual(result.code, 6, `a 400 is not a timeout: ${result.stderr}`);
      assert.match(result.stderr, /HTTP 400|400/);
      assert.ok(sentBytes < 300 * 1024 * 1024, 'the client stopped reading long before the end');
      assertBounded(result);
    });
    it(`${path}: closes after half a body → exit 6`, async () => {
      const { run: result } = await run(path, { kind: 'half', status: path === 'login' ? 200 : 202 });
      assert.equal(result.code, 6, result.stderr);
      assertBounded(result);
    });
  }

  it('single --json: a 202 with a 300 MB body → delivered, the response marked as cut', async () => {
    // The cap, not the deadline, must end it: a loaded machine gets time to read 1 MiB.
    const { run: result } = await run('single', { kind: 'flood', status: 202 }, ['--json'], 8);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).truncated, true);
    assertBounded(result, 1, 8);
  });

  it('batch: an endless chunked 202 body → delivered, memory flat', async () => {
    const { run: result, requests } = await run('batch', { kind: 'flood', status: 202, chunked: true }, [], 8);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(requests, 2);
    assertBounded(result, 1, 8);
  });

  it('login: an endless chunked 200 body → exit 6 (not a usable answer), memory flat', async () => {
    const { run: result } = await run('login', { kind: 'flood', status: 200, chunked: true }, [], 8);
    assert.equal(result.code, 6, result.stderr);
    assert.match(result.stderr, /not JSON/);
    assertBounded(result, 1, 8);
  });

  it('single: each retry has its own deadline, and a timeout is retried', async () => {
    const { run: result, requests } = await run('single', { kind: 'trickle', status: 202 }, ['--retries', '1']);
    assert.equal(result.code, 6, result.stderr);
    assert.equal(requests, 2);
    assert.match(result.stderr, /after 2 attempts/);
    assertBounded(result, 2);
  });
});
