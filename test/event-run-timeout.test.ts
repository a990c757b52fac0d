/**
 * `event run --timeout` bounds the whole run, whatever the command started: the command leads a process
 * group of its own, the timeout ends the group (SIGTERM, then SIGKILL after the grace), and svcctl stops
 * reading stderr a grace after the command exits, so a grandchild holding the pipe (left running, ignoring
 * SIGTERM, or in a session of its own) cannot hold the event back. Each run is awaited with a bound far
 * below what its grandchild would last (999 s): a run that waits for it fails here instead of hanging.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { useEventFixture } from './helpers/event-fixture.js';
import { runCommand, type RunOutcome } from '../src/events/run-process.js';
import { isRunning } from './helpers/processes.js';

const BOUND_MS = 15_000;

/** The pids the scripts print (`pid <n>`), so that no run leaves a process behind, whatever the code does. */
const started: number[] = [];
const alive = isRunning;
afterEach(() => {
  for (const pid of started.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
});

function pidsIn(text: string): number[] {
  const pids = [...text.matchAll(/pid (\d+)/g)].map((match) => Number(match[1]));
  started.push(...pids);
  return pids;
}

/** Polls until the process is gone (reaped by init, which takes a moment), with a bound. */
async function gone(pid: number): Promise<boolean> {
  for (const deadline = Date.now() + BOUND_MS; Date.now() < deadline; ) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

async function within<T>(run: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still running after ${BOUND_MS} ms`)), BOUND_MS);
  });
  try {
    return await Promise.race([run, bound]);
  } finally {
    clearTimeout(timer);
  }
}

/** runCommand with a short grace, its stderr kept. */
async function run(script: string, timeoutMs?: number): Promise<{ outcome: RunOutcome; stderr: string }> {
  let stderr = '';
  const outcome = await within(
    runCommand({
      command: 'sh',
      args: ['-c', script],
      env: { PATH: process.env.PATH },
      cwd: process.cwd(),
      platform: process.platform,
      stderr: {
        write: (chunk) => {
          stderr += Buffer.from(chunk).toString('utf8');
          pidsIn(Buffer.from(chunk).toString('utf8'));
          return true;
        },
      },
      timeoutMs,
      graceMs: 300,
      onSignal: () => () => undefined,
    }),
    script,
  );
  return { outcome, stderr };
}

describe('event run --timeout: the run is bounded whatever the command started', {
  skip: process.platform === 'win32',
}, () => {
  const fixture = useEventFixture('tok-timeout-5e1a');

  it("as in the issue: sh -c 'sleep 999 & exit 5' with --timeout: the event goes out at the timeout, the sleep is ended", async () => {
    const before = fixture.server.requests.length;
    const result = await runCli(
      ['event', 'run', '--timeout', '0.5', '--', 'sh', '-c', 'sleep 999 & echo "pid $!" >&2; exit 5'],
      { env: fixture.env, timeoutMs: BOUND_MS },
    );
    assert.equal(result.timedOut, false, `svcctl waited for the grandchild: ${result.stderr}`);
    assert.equal(result.code, 5, result.stderr);
    const [sleeper] = pidsIn(result.stderr);
    assert.ok(sleeper, result.stderr);
    assert.equal(fixture.server.requests.length, before + 1, 'one event sent');
    const event = JSON.parse(fixture.server.requests[before]!.body.toString('utf8')).event;
    assert.equal(event.title, 'sh failed (exit 5)', 'the command itself exited 5 before the timeout');
    assert.ok(await gone(sleeper), 'the timeout ended the sleep the command left running');
  });

  it('a grandchild that ignores SIGTERM: SIGKILL reaches it a grace after the timeout, and the run ends', async () => {
    const script = 'sh -c \'trap "" TERM; echo "pid $$" >&2; exec sleep 999\' & wait';
    const { outcome, stderr } = await run(script, 300);
    assert.equal(outcome.timedOut, true);
    assert.equal(outcome.signal, 'SIGTERM', 'the command itself ended on SIGTERM');
    const pids = pidsIn(stderr);
    assert.equal(pids.length, 1, stderr);
    assert.ok(await gone(pids[0]!), 'the grandchild is killed with its group');
  });

  it('a command that ignores SIGTERM itself: killed by SIGKILL with its children', async () => {
    const { outcome, stderr } = await run('trap "" TERM; sleep 999 & echo "pid $!" >&2; wait; wait', 300);
    assert.equal(outcome.timedOut, true);
    assert.equal(outcome.signal, 'SIGKILL');
    const [sleeper] = pidsIn(stderr);
    assert.ok(sleeper && (await gone(sleeper)), stderr);
  });

  it('a grandchild in a session of its own (out of reach) holding stderr: the run ends a grace after the command', async () => {
    const { outcome, stderr } = await run('setsid sh -c \'echo "pid $$" >&2; exec sleep 999\' & sleep 0.2; exit 3');
    assert.equal(outcome.code, 3, stderr);
    assert.equal(outcome.timedOut, false);
    assert.equal(pidsIn(stderr).length, 1, 'what it wrote within the grace is kept');
    assert.match(outcome.stderrTail.toString('utf8'), /^pid \d+$/m);
  });

  it('no timeout: a command that exits and leaves a grandchild holding stderr still ends the run', async () => {
    const { outcome, stderr } = await run('sleep 999 & echo "pid $!" >&2; exit 4');
    assert.equal(outcome.code, 4);
    const [sleeper] = pidsIn(stderr);
    assert.ok(sleeper && alive(sleeper), 'without --timeout what it left running is left alone');
  });
});
