import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BIN, cleanEnv, makeTempDir, runCli } from './helpers/cli.js';
import { eventLines } from './helpers/event-lines.js';
import { startRecordingServer } from './helpers/recording-server.js';

const TOKEN = 'tok-safety-31';

describe('event send --ndjson: nothing is lost, nothing runs away', () => {
  let dir: string;
  before(async () => {
    dir = await makeTempDir();
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('refuses a --failed-out that is the input file itself (exit 2, nothing sent)', async () => {
    const server = await startRecordingServer();
    try {
      const input = join(dir, 'loop.ndjson');
      await writeFile(input, 'not json\nnot json\n');
      const before = (await stat(input)).size;
      const result = await runCli(['event', 'send', '--ndjson', input, '--failed-out', input], {
        env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN },
      });
      assert.equal(result.code, 2);
      assert.match(result.stderr, /is the input itself/);
      assert.equal((await stat(input)).size, before);
      const viaStdin = await runCli(['event', 'send', '--ndjson', '-', '--failed-out', input], {
        input: await readFile(input),
        env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN },
      });
      assert.equal(viaStdin.code, 9, 'a pipe is not the file, even with the same bytes: the bad lines are appended');
      assert.equal(await readFile(input, 'utf8'), 'not json\nnot json\nnot json\nnot json\n');
    } finally {
      await server.close();
    }
  });

  it('refuses a --failed-out that is a folder before sending anything', async () => {
    const server = await startRecordingServer();
    try {
      const input = join(dir, 'ok.ndjson');
      await writeFile(input, `${eventLines(3).join('\n')}\n`);
      await mkdir(join(dir, 'a-folder'));
      const result = await runCli(['event', 'send', '--ndjson', input, '--failed-out', join(dir, 'a-folder')], {
        env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN },
      });
      assert.equal(result.code, 2);
      assert.match(result.stderr, /is a folder, not a file/);
      assert.equal(server.requests.length, 0);
    } finally {
      await server.close();
    }
  });

  it('Ctrl+C appends the lines in flight to --failed-out, stops reading, and exits 130', async () => {
    // The server never answers: every line sent stays in flight.
    const server = await startRecordingServer(() => new Promise(() => {}));
    try {
      const input = join(dir, 'hang.ndjson');
      const all = eventLines(50);
      await writeFile(input, `${all.join('\n')}\n`);
      const failedOut = join(dir, 'interrupted.ndjson');
      const child = spawn(
        process.execPath,
        [BIN, 'event', 'send', '--ndjson', input, '--concurrency', '4', '--failed-out', failedOut, '--json'],
        {
          env: cleanEnv(dir, { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN }),
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      let stdout = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.stdout.on('data', (chunk) => (stdout += chunk));
      const deadline = Date.now() + 15_000;
      while (server.requests.length < 4 && child.exitCode === null && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(child.exitCode, null, `svcctl ended before the signal: ${stderr}`);
      child.kill('SIGINT');
      const code = await new Promise((resolve) => child.on('close', resolve));
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
});
