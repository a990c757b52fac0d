/**
 * What only a process shows: a reader that closes stdout early (`svcctl … | head -c 0`: svcctl finishes its work
 * and exits with the work's code, quietly, as `git log | head` does; the test destroys its end of the child's
 * stdout as soon as the child starts), Ctrl+C (SIGINT) during `event run` and a batch, and kill -9 during a flush.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BIN, cleanEnv, runCli } from './helpers/cli.js';
import { eventLines } from './helpers/event-lines.js';
import { startRecordingServer } from './helpers/recording-server.js';
import { tempDir } from './helpers/temp-dirs.js';

async function runWithClosedStdout(
  args: string[],
  env: Record<string, string>,
  input?: string,
): Promise<{ code: number | null; stderr: string; home: string }> {
  const home = await tempDir('svcctl-pipe-');
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: home,
    env: cleanEnv(home, env),
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  child.stdout!.destroy();
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  if (input !== undefined) child.stdin!.end(input);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stderr, home };
}

describe('a reader that closes stdout early', { concurrency: true }, () => {
  it('--version into a closed pipe: exit 0, nothing on stderr', async () => {
    for (const flag of ['--version', '-V']) {
      const { code, stderr } = await runWithClosedStdout([flag], {});
      assert.equal(stderr, '', flag);
      assert.equal(code, 0, flag);
    }
  });

  it('--version | head -c 0 in a shell: svcctl exits 0 with nothing on stderr', {
    skip: process.platform === 'win32' ? 'needs bash' : false,
  }, async () => {
    const script = `"${process.execPath}" "${BIN}" --version | head -c 0; echo "svcctl=\${PIPESTATUS[0]}"`;
    const child = spawn('bash', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    await new Promise((resolve) => child.on('close', resolve));
    assert.equal(stderr, '');
    assert.equal(stdout, 'svcctl=0\n');
  });

  it('mcp install into a closed pipe: the file is written, exit 0, no error', async () => {
    const env = {
      SERVICE_BASE_URL: 'http://127.0.0.1:9/api',
      SERVICE_EMAIL: 'me@example.com',
      SERVICE_PASSWORD: 'pw-123456',
    };
    const { code, stderr, home } = await runWithClosedStdout(
      ['mcp', 'install', '--client', 'cursor', '--mode', 'remote', '--json'],
      env,
    );
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stderr, /internal error|EPIPE|error:/);
    const written = JSON.parse(await readFile(join(home, '.cursor', 'mcp.json'), 'utf8'));
    assert.equal(written.mcpServers.service.url, 'http://127.0.0.1:9/mcp');
  });

  it('a batch whose reader is gone still sends every event and exits 0', async () => {
    const server = await startRecordingServer();
    try {
      const lines = Array.from({ length: 200 }, (_, i) => JSON.stringify({ title: `event ${i}` })).join('\n');
      const env = { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 'ingest-token-1234' };
      const { code, stderr } = await runWithClosedStdout(['event', 'send', '--ndjson', '-'], env, `${lines}\n`);
      assert.equal(code, 0, stderr);
      assert.doesNotMatch(stderr, /internal error|EPIPE/);
      const titles = new Set(server.requests.map((request) => JSON.parse(request.body.toString('utf8')).event.title));
      assert.equal(titles.size, 200, 'every event reached the server');
    } finally {
      await server.close();
    }
  });

  it('a batch with a failure still exits 9 when its reader is gone', async () => {
    const server = await startRecordingServer();
    try {
      const input = `${JSON.stringify({ title: 'good' })}\nnot json\n`;
      const env = { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 'ingest-token-1234' };
      const { code, stderr } = await runWithClosedStdout(['event', 'send', '--ndjson', '-'], env, input);
      assert.equal(code, 9, stderr);
      assert.equal(server.requests.length, 1);
    } finally {
      await server.close();
    }
  });
});

/** Polls until `done()` holds (a condition, not a time); fails after 15 s. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 15_000; !done(); ) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const closed = (child: ChildProcess): Promise<number | null> =>
  new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('close', resolve)));

describe('signals', { concurrency: true }, () => {
  it('event run: SIGINT is forwarded to the command', async () => {
    const server = await startRecordingServer();
    const home = await tempDir();
    try {
      const script = 'trap "echo got-int >&2; exit 42" INT; echo ready >&2; while :; do sleep 0.05; done';
      const child = spawn(process.execPath, [BIN, 'event', 'run', '--', 'sh', '-c', script], {
        env: cleanEnv(home, { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 'tok-run-7c1f' }),
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('ready') && !stderr.includes('got-int')) child.kill('SIGINT');
      });
      const code = await closed(child);
      assert.equal(code, 42, stderr);
      assert.match(stderr, /got-int/);
    } finally {
      await server.close();
    }
  });

  it('event send --ndjson: Ctrl+C appends the lines in flight to --failed-out, stops reading, and exits 130', async () => {
    // The server never answers: every line sent stays in flight.
    const server = await startRecordingServer(() => new Promise(() => {}));
    const dir = await tempDir();
    try {
      const input = join(dir, 'hang.ndjson');
      const all = eventLines(50);
      await writeFile(input, `${all.join('\n')}\n`);
      const failedOut = join(dir, 'interrupted.ndjson');
      const child = spawn(
        process.execPath,
        [BIN, 'event', 'send', '--ndjson', input, '--concurrency', '4', '--failed-out', failedOut, '--json'],
        {
          env: cleanEnv(dir, { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 'tok-safety-31' }),
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      let stdout = '';
      child.stderr!.on('data', (chunk) => (stderr += chunk));
      child.stdout!.on('data', (chunk) => (stdout += chunk));
      await until(() => server.requests.length >= 4 || child.exitCode !== null, 'four requests in flight');
      assert.equal(child.exitCode, null, `svcctl ended before the signal: ${stderr}`);
      child.kill('SIGINT');
      const code = await closed(child);
      assert.equal(code, 130, stderr);
      const kept = (await readFile(failedOut, 'utf8')).trimEnd().split('\n');
      assert.deepEqual(kept, all.slice(0, 4), 'the four lines in flight, in input order');
      assert.match(stderr, /interrupted: 4 lines in flight were not confirmed/);
      const reported = stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      assert.deepEqual(
        reported.map((r) => [r.line, r.id, r.status]),
        all.slice(0, 4).map((line, i) => [i + 1, JSON.parse(line).event.id, null]),
        'each line in flight is reported with the id it was sent with',
      );
    } finally {
      await server.close();
    }
  });

  it('event flush: kill -9 during a flush loses nothing, the next flush takes the claims back', async () => {
    const home = await tempDir();
    const spool = join(home, 'spool');
    await mkdir(spool, { recursive: true });
    const ids = Array.from({ length: 20 }, () => randomUUID());
    for (const [i, id] of ids.entries()) {
      const event = { id, title: `spooled ${i}`, created_at: '2026-01-01T00:00:00.000Z', investigate: false };
      await writeFile(join(spool, `${id}.json`), JSON.stringify({ event }));
    }
    const idOf = (body: Buffer): string => JSON.parse(body.toString('utf8')).event.id;
    const hanging = await startRecordingServer(() => new Promise(() => {}));
    const env = { SERVICE_BASE_URL: hanging.baseUrl, SERVICE_INGEST_TOKEN: 'tok-spool-4a1d' };
    const child = spawn(
      process.execPath,
      [BIN, 'event', 'flush', '--spool', spool, '--concurrency', '4', '--legacy-to-current'],
      {
        env: cleanEnv(home, env),
        stdio: 'ignore',
      },
    );
    await until(() => hanging.requests.length >= 4 || child.exitCode !== null, 'four requests in flight');
    child.kill('SIGKILL');
    await closed(child);
    await hanging.close();
    assert.equal((await readdir(join(spool, '.inflight'))).length, 4, 'four claims left by the killed flush');
    const server = await startRecordingServer();
    try {
      const result = await runCli(['event', 'flush', '--spool', spool, '--legacy-to-current'], {
        env: { ...env, SERVICE_BASE_URL: server.baseUrl },
        home,
      });
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(server.requests.map((r) => idOf(r.body)).sort(), [...ids].sort());
      assert.deepEqual(
        (await readdir(spool)).filter((name) => name.endsWith('.json')),
        [],
      );
    } finally {
      await server.close();
    }
  });
});
