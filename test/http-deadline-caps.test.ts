/**
 * A broken server can never hang svcctl: every attempt of the single path, the batch path and login ends at its
 * deadline (--timeout, the whole attempt), naming the part that was slow. Time is moved, not waited for: the
 * deadlines run on a manual clock, moved once every attempt has reached the part a test is about. Answers without
 * end (the body caps, memory flat) are measured on a process in memory-bounds.e2e.test.ts.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type AttemptPhase, runningPhases, useDeadlineClock } from '../src/http/attempt-deadline.js';
import { runCli, type RunResult } from './helpers/cli.js';
import { startHostileServer, type Misbehaviour } from './helpers/hostile-server.js';
import { manualClock } from './helpers/manual-clock.js';
import { EMAIL, PASSWORD } from './helpers/login-server.js';
import { startRecordingServer } from './helpers/recording-server.js';
import { tempDir } from './helpers/temp-dirs.js';
import { pollUntil } from './helpers/poll.js';

type Path = 'single' | 'batch' | 'login';

const clock = manualClock();
let restore: () => void = () => undefined;
before(() => {
  restore = useDeadlineClock(clock);
});
after(() => restore());

/** Polls until `count` attempts run and every one reached `phase` (a condition, not a time); fails after 15 s. */
async function reached(phase: AttemptPhase, count: number, done: () => boolean): Promise<void> {
  await pollUntil(
    () => `the attempts reaching '${phase}': ${runningPhases().join(', ')}`,
    () => {
      const phases = runningPhases();
      if (phases.length >= count && phases.every((each) => each === phase)) return true;
      if (done()) throw new Error(`svcctl ended before its attempts reached '${phase}'`);
      return false;
    },
    { withinMs: 15_000, everyMs: 5 },
  );
}

async function argsFor(path: Path, timeoutS: number, extra: string[]): Promise<[string[], Record<string, string>]> {
  if (path === 'login')
    return [['login', '--timeout', String(timeoutS)], { SERVICE_EMAIL: 'a@example.com', SERVICE_PASSWORD: 'pw-77' }];
  const args = ['event', 'send', '--timeout', String(timeoutS), '--retries', '0', ...extra];
  if (path === 'single') args.push('--title', 'x');
  else {
    const input = join(await tempDir('svcctl-deadline-'), 'batch.ndjson');
    await writeFile(input, '{"title":"a"}\n{"title":"b"}\n');
    args.push('--ndjson', input, '--concurrency', '2');
  }
  return [args, { SERVICE_INGEST_TOKEN: 'tok-deadline-31' }];
}

/**
 * Runs svcctl against a misbehaving server. With `phase`, waits until `attempts` attempts reached it, checks that
 * time just short of the deadline ends nothing, then moves the clock to the deadline (`rounds` times, for retries).
 */
async function run(
  path: Path,
  how: Misbehaviour,
  options: { phase?: AttemptPhase; attempts?: number; rounds?: number; extra?: string[] } = {},
): Promise<{ result: RunResult; requests: number }> {
  const server = await startHostileServer(how);
  try {
    const [args, env] = await argsFor(path, 1, options.extra ?? []);
    let done = false;
    const running = runCli(args, { env: { SERVICE_BASE_URL: server.baseUrl, ...env } }).finally(() => (done = true));
    for (let round = 0; options.phase && round < (options.rounds ?? 1); round++) {
      await reached(options.phase, options.attempts ?? 1, () => done);
      clock.advance(999);
      assert.equal(runningPhases().length, options.attempts ?? 1, 'an attempt ended before its deadline');
      clock.advance(1);
    }
    const result = await running;
    assert.equal(result.timedOut, false, 'svcctl hung');
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
    return { result, requests: server.requests };
  } finally {
    await server.close();
  }
}

describe('the whole attempt has one deadline (--timeout)', () => {
  for (const path of ['single', 'batch', 'login'] as const) {
    const attempts = path === 'batch' ? 2 : 1;
    it(`${path}: headers, then one byte a second → exit 6 naming the body as slow`, async () => {
      const status = path === 'login' ? 200 : 202;
      const { result } = await run(path, { kind: 'trickle', status }, { phase: 'body', attempts });
      assert.equal(result.code, 6, result.stderr);
      assert.match(result.stderr, /sent the answer's headers but not its body within 1 s/);
    });
    it(`${path}: no headers at all → exit 6 naming the headers`, async () => {
      const { result } = await run(path, { kind: 'silent' }, { phase: 'headers', attempts });
      assert.equal(result.code, 6, result.stderr);
      assert.match(result.stderr, /did not send the answer's headers within 1 s/);
    });
    it(`${path}: closes after half a body → exit 6`, async () => {
      const { result } = await run(path, { kind: 'half', status: path === 'login' ? 200 : 202 });
      assert.equal(result.code, 6, result.stderr);
    });
  }

  it('single: each retry has its own deadline, and a timeout is retried', async () => {
    const { result, requests } = await run(
      'single',
      { kind: 'trickle', status: 202 },
      { phase: 'body', rounds: 2, extra: ['--retries', '1'] },
    );
    assert.equal(result.code, 6, result.stderr);
    assert.equal(requests, 2);
    assert.match(result.stderr, /after 2 attempts/);
  });

  it('login --timeout: a service that never answers is exit 6 after the timeout; --timeout 0 is exit 2', async () => {
    const server = await startRecordingServer(() => new Promise(() => undefined));
    try {
      const env = { SERVICE_BASE_URL: server.baseUrl, SERVICE_EMAIL: EMAIL, SERVICE_PASSWORD: PASSWORD };
      let done = false;
      const running = runCli(['login', '--timeout', '0.5'], { env }).finally(() => (done = true));
      await reached('headers', 1, () => done);
      clock.advance(500);
      const result = await running;
      assert.equal(result.code, 6);
      assert.match(result.stderr, /127\.0\.0\.1:\d+: the service did not send the answer's headers within 0\.5 s/);
      assert.ok(!result.stderr.includes(PASSWORD));
    } finally {
      await server.close();
    }
    const bad = await runCli(['login', '--timeout', '0'], {
      env: { SERVICE_BASE_URL: 'http://127.0.0.1:9/api', SERVICE_EMAIL: EMAIL, SERVICE_PASSWORD: PASSWORD },
    });
    assert.equal(bad.code, 2);
  });
});
