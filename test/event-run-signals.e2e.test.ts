/**
 * `event run` and signals where the command's process group is the point: a SIGTERM svcctl forwards reaches what
 * the command started too, and when a second Ctrl+C ends svcctl the command (deaf to SIGINT) gets SIGTERM. The
 * built CLI runs as a process; each grandchild is ended by its pid whatever happens.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { describe, it } from 'node:test';
import { BIN, cleanEnv } from './helpers/cli.js';
import { startRecordingServer } from './helpers/recording-server.js';
import { tempDir } from './helpers/temp-dirs.js';
import { isRunning } from './helpers/processes.js';

/** Polls until `done()` holds (a condition, not a time); fails after 15 s. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 15_000; !done(); ) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const closed = (child: ChildProcess): Promise<number | null> =>
  new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('close', resolve)));

const running = isRunning;

function eventOf(body: Buffer): { title: string; investigate: boolean; payload: Record<string, unknown> } {
  const event = JSON.parse(body.toString('utf8')).event;
  return { ...event, payload: JSON.parse(event.payload) };
}

/** Starts `event run [flags] -- sh -c "<ready>; exec sleep 30"` and sends `signal` to svcctl once the job runs. */
async function cancelledRun(flags: string[], signal: NodeJS.Signals) {
  const server = await startRecordingServer();
  const home = await tempDir();
  try {
    const child = spawn(
      process.execPath,
      [BIN, 'event', 'run', ...flags, '--', 'sh', '-c', 'echo "ready $$" >&2; exec sleep 30'],
      {
        env: cleanEnv(home, { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 'tok-run-7c1f' }),
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await until(() => /ready \d+/.test(stderr), 'the command is ready');
    child.kill(signal);
    const code = await closed(child);
    // svcctl sends before it exits: what the server holds now is all it will get.
    return { code, stderr, events: server.requests.map((request) => eventOf(request.body)) };
  } finally {
    await server.close();
  }
}

describe('event run: signals and the process group', { concurrency: true, skip: process.platform === 'win32' }, () => {
  it('event run: SIGTERM reaches what the command started too (its process group), not only the command', async () => {
    const server = await startRecordingServer();
    const home = await tempDir();
    let grandchild: number | undefined;
    try {
      const inner = 'trap "echo got-term >&2; exit 0" TERM; echo "ready $$" >&2; while :; do sleep 0.05; done';
      const child = spawn(
        process.execPath,
        [BIN, 'event', 'run', '--', 'sh', '-c', `sh -c '${inner}' & wait; exit 9`],
        {
          env: cleanEnv(home, { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 'tok-run-7c1f' }),
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const ready = /ready (\d+)/.exec(stderr);
        if (ready && grandchild === undefined) {
          grandchild = Number(ready[1]);
          child.kill('SIGTERM');
        }
      });
      await until(() => child.exitCode !== null || child.signalCode !== null, 'svcctl ends after SIGTERM');
      assert.match(stderr, /got-term/, 'the grandchild got the forwarded signal');
      assert.equal(child.exitCode, 143, stderr);
    } finally {
      // Without the group, the grandchild would loop on: end it by its pid.
      if (grandchild !== undefined) {
        try {
          process.kill(grandchild, 'SIGKILL');
        } catch {
          // gone, as it should be
        }
      }
      await server.close();
    }
  });

  it('event run: a second Ctrl+C ends svcctl, and the command (deaf to SIGINT) gets SIGTERM', async () => {
    const server = await startRecordingServer();
    const home = await tempDir();
    let job: number | undefined;
    try {
      const script = 'trap "" INT; echo "ready $$" >&2; while :; do sleep 0.05; done';
      const child = spawn(process.execPath, [BIN, 'event', 'run', '--', 'sh', '-c', script], {
        env: cleanEnv(home, { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 'tok-run-7c1f' }),
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      await until(() => /ready \d+/.test(stderr), 'the command is ready');
      job = Number(/ready (\d+)/.exec(stderr)![1]);
      // Two signals sent at once may arrive as one: the first is forwarded (and ignored), the next ends svcctl.
      child.kill('SIGINT');
      await until(() => {
        if (child.exitCode === null) child.kill('SIGINT');
        return child.exitCode !== null;
      }, 'svcctl ends on a second SIGINT');
      assert.equal(await closed(child), 130, stderr);
      await until(() => !running(job!), 'the command ends after svcctl');
    } finally {
      if (job !== undefined && running(job)) process.kill(job, 'SIGKILL');
      await server.close();
    }
  });

  it('event run: Ctrl+C (SIGINT to svcctl) cancels the job, exits 130 and sends no event', async () => {
    const run = await cancelledRun(['--investigate'], 'SIGINT');
    assert.equal(run.code, 130, run.stderr);
    assert.deepEqual(run.events, [], 'a person who pressed Ctrl+C wants no alert');
  });

  it('event run --always: a Ctrl+C sends one info event saying cancelled, not failed', async () => {
    const run = await cancelledRun(['--always', '--investigate'], 'SIGINT');
    assert.equal(run.code, 130, run.stderr);
    assert.equal(run.events.length, 1, run.stderr);
    const [event] = run.events;
    assert.equal(event!.title, 'sh cancelled (SIGINT)');
    assert.equal(event!.investigate, false);
    assert.equal(event!.payload.severity, 'info');
    assert.deepEqual(
      [
        (event!.payload.labels as Record<string, string>).cancelled,
        (event!.payload.labels as Record<string, string>).exit_code,
      ],
      ['SIGINT', '130'],
    );
  });

  it('event run: SIGTERM to svcctl (a service manager stopping it) sends a warning saying cancelled', async () => {
    const run = await cancelledRun(['--investigate'], 'SIGTERM');
    assert.equal(run.code, 143, run.stderr);
    assert.equal(run.events.length, 1, run.stderr);
    const [event] = run.events;
    assert.equal(event!.title, 'sh cancelled (SIGTERM)');
    assert.equal(event!.investigate, false, 'the job did not fail: nothing to investigate');
    assert.equal(event!.payload.severity, 'warning');
    const labels = event!.payload.labels as Record<string, string>;
    assert.deepEqual([labels.cancelled, labels.signal, labels.exit_code], ['SIGTERM', 'SIGTERM', '143']);
  });
});
