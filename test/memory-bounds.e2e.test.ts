/**
 * Memory that only a process shows. useLowMemoryEngine (src/startup/engine-memory.ts), which a batch calls: the young
 * generation stops growing at 4 MB (two 2 MB semi-spaces), where V8 alone grows it further under the same allocations,
 * and undici's WebAssembly parser is never re-compiled by TurboFan (~1.4 s of CPU and a 23 MB peak on Node 24).
 * `event run` passes 100 MB of a command's stderr through with flat memory. Answers without end (a 300 MB body, an
 * endless chunked one) are read with a cap. Peak memory is the child's VmHWM (/proc/<pid>/status).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { BIN, cleanEnv } from './helpers/cli.js';
import { startHostileServer, type Misbehaviour } from './helpers/hostile-server.js';
import { runCliMeasured, type MeasuredRun } from './helpers/peak-rss.js';
import { startRecordingServer } from './helpers/recording-server.js';
import { tempDir } from './helpers/temp-dirs.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/young-generation.ts', import.meta.url));
const MB = 1024 * 1024;
const LINUX = process.platform === 'linux';

/** The largest young generation of the fixture, and the rounds of allocation it did. */
async function youngGeneration(args: string[]): Promise<{ largest: number; rounds: number }> {
  // No time limit but the runner's: on a loaded machine the low-memory run takes tens of seconds.
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, stderr);
  const [largest, rounds] = stdout.trim().split(' ').map(Number);
  return { largest: largest!, rounds: rounds! };
}

// V8 13 (Node 24) reads the young generation's size only at start-up: the flag set at run time no longer caps it
// (docs/architecture.md, "Private contracts"), so the cap is a Node 20 and 22 behaviour.
const NO_RUNTIME_CAP =
  Number(process.versions.node.split('.')[0]) >= 24
    ? 'V8 on Node 24 ignores the run-time young-generation flag'
    : false;

/** Start-up of the CLI on a loaded machine, on top of --timeout + 1 s. */
const SLACK_MS = 5000;
const MAX_PEAK_MIB = 150;

async function flooded(
  path: 'single' | 'batch' | 'login',
  how: Misbehaviour,
  extra: string[] = [],
  timeoutS = 1,
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
        const input = join(await tempDir('svcctl-deadline-'), 'batch.ndjson');
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

function assertBounded(result: MeasuredRun, timeoutS: number): void {
  assert.ok(result.elapsedMs < (timeoutS + 1) * 1000 + SLACK_MS, `took ${result.elapsedMs} ms: ${result.stderr}`);
  if (LINUX) assert.ok(result.peakMiB > 0 && result.peakMiB < MAX_PEAK_MIB, `peak RSS ${result.peakMiB} MiB`);
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
}

describe('memory that only a process shows', { concurrency: true }, () => {
  it('the young generation stays at 4 MB or less with useLowMemoryEngine, and grows past it without', {
    skip: NO_RUNTIME_CAP,
  }, async () => {
    // Without the cap, allocation goes on until V8 grew the young generation past 4 MB, however long that takes here.
    const without = await youngGeneration(['default']);
    assert.ok(
      without.largest > 4 * MB,
      `without the cap the young generation reached only ${without.largest / MB} MB in ${without.rounds} rounds: this test proves nothing`,
    );
    // With it, 200 rounds at least, and 50 times the allocation that made V8 grow it.
    const low = await youngGeneration(['low', String(Math.max(200, 50 * without.rounds))]);
    assert.ok(low.largest <= 4 * MB, `with the cap the young generation reached ${low.largest / MB} MB`);
  });

  it("a batch keeps undici's WebAssembly HTTP parser on its first compiler: no TurboFan re-compile", async () => {
    const server = await startRecordingServer();
    try {
      const home = await tempDir('svcctl-wasm-tier-');
      const file = join(home, 'events.ndjson');
      await writeFile(file, Array.from({ length: 200 }, (_, i) => `{"title":"wasm ${i}"}\n`).join(''));
      // V8 prints a line per WebAssembly function it compiles, naming the compiler, on stdout beside the ids.
      const child = spawn(
        process.execPath,
        ['--trace-wasm-compilation-times', BIN, 'event', 'send', '--ndjson', file, '--concurrency', '4'],
        { env: cleanEnv(home, { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 't' }), stdio: 'pipe' },
      );
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.equal(code, 0, stdout);
      assert.equal(server.requests.length, 200);
      assert.match(stdout, /using Liftoff/, 'the parser was compiled (and traced) at all');
      assert.doesNotMatch(stdout, /using TurboFan/);
    } finally {
      await server.close();
    }
  });

  it('event run: 100 MB on stderr, passed through whole, memory stays bounded', {
    skip: !LINUX && 'reads /proc, which only Linux has',
  }, async () => {
    const server = await startRecordingServer();
    try {
      const home = await tempDir();
      const script = 'yes "a line of stderr output from the job" | head -c 100000000 >&2; echo last-line >&2; exit 5';
      const child = spawn(process.execPath, [BIN, 'event', 'run', '--', 'sh', '-c', script], {
        env: cleanEnv(home, { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 'tok-run-7c1f' }),
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let bytes = 0;
      let peakKb = 0;
      child.stderr!.on('data', (chunk: Buffer) => (bytes += chunk.length));
      const poll = setInterval(async () => {
        const status = await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '');
        peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
      }, 50);
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      clearInterval(poll);
      assert.equal(code, 5);
      assert.ok(bytes >= 100_000_000, `only ${bytes} bytes passed through`);
      assert.ok(peakKb > 0, 'VmHWM was read');
      assert.ok(peakKb < 150 * 1024, `peak resident memory ${peakKb} kB`);
      const event = JSON.parse(server.requests[0]!.body.toString('utf8')).event;
      const message = JSON.parse(event.payload).message as string;
      assert.match(message, /last-line$/);
      assert.ok(Buffer.byteLength(message) <= 4096);
    } finally {
      await server.close();
    }
  });

  describe('answers without end are read with a cap: memory flat, the run ends', { concurrency: 3 }, () => {
    for (const path of ['single', 'batch', 'login'] as const) {
      it(`${path}: a 400 with a 300 MB body → rejected, memory flat, the body cut`, async () => {
        const { run: result, sentBytes } = await flooded(path, { kind: 'flood', status: 400 });
        assert.notEqual(result.code, 0, result.stderr);
        assert.notEqual(result.code, 6, `a 400 is not a timeout: ${result.stderr}`);
        assert.match(result.stderr, /HTTP 400\b/);
        assert.ok(sentBytes < 300 * 1024 * 1024, 'the client stopped reading long before the end');
        assertBounded(result, 1);
      });
    }

    it('single --json: a 202 with a 300 MB body → delivered, the response marked as cut', async () => {
      // The cap, not the deadline, must end it: a loaded machine gets time to read 1 MiB.
      const { run: result } = await flooded('single', { kind: 'flood', status: 202 }, ['--json'], 8);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(JSON.parse(result.stdout).truncated, true);
      assertBounded(result, 8);
    });

    it('batch: an endless chunked 202 body → delivered, memory flat', async () => {
      const { run: result, requests } = await flooded('batch', { kind: 'flood', status: 202, chunked: true }, [], 8);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(requests, 2);
      assertBounded(result, 8);
    });

    it('login: an endless chunked 200 body → exit 6 (not a usable answer), memory flat', async () => {
      const { run: result } = await flooded('login', { kind: 'flood', status: 200, chunked: true }, [], 8);
      assert.equal(result.code, 6, result.stderr);
      assert.match(result.stderr, /not JSON/);
      assertBounded(result, 8);
    });
  });
});
