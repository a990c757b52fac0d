import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PassThrough } from 'node:stream';
import { runCli, secretsIn } from './helpers/cli.js';
import { eventLines } from './helpers/event-lines.js';
import { accepted, startRecordingServer } from './helpers/recording-server.js';
import { tempDir } from './helpers/temp-dirs.js';

const TOKEN = 'tok-batch-77';
const SECRET = 'sec-batch-88';

describe('event send --ndjson', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir();
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('a malformed line among 1,000: exit 9, the rest delivered, the line in --failed-out byte for byte', async () => {
    const server = await startRecordingServer();
    try {
      const lines = eventLines(1000);
      const malformed = '{"event": {"title": "broken" \t,,}  ';
      lines[499] = malformed; // line 500
      const input = join(dir, 'batch.ndjson');
      await writeFile(input, `${lines.join('\n')}\n`);
      const failedOut = join(dir, 'failed.ndjson');
      const result = await runCli(
        ['event', 'send', '--ndjson', input, '--concurrency', '16', '--failed-out', failedOut, '--json'],
        {
          env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN, SERVICE_HMAC_SECRET: SECRET },
          timeoutMs: 60_000,
        },
      );
      assert.equal(result.code, 9, result.stderr);
      assert.equal(server.requests.length, 999);
      assert.equal(await readFile(failedOut, 'utf8'), `${malformed}\n`);
      assert.match(result.stderr, /line 500/);
      const results = result.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.equal(results.length, 1000);
      assert.deepEqual(
        results.map((r) => r.line),
        Array.from({ length: 1000 }, (_, i) => i + 1),
        'results in input order',
      );
      assert.equal(results[499].status, null);
      assert.ok(results[499].error);
      assert.equal(results.filter((r) => r.status === 202).length, 999);
      const sentIds = new Set(server.requests.map((r) => JSON.parse(r.body.toString()).event.id));
      assert.equal(sentIds.size, 999, 'each event sent once');
      assert.deepEqual(secretsIn(result, [TOKEN, SECRET]), []);
      assert.ok(!result.stderr.includes('\r'), 'no progress line when stderr is not a terminal');
      assert.match(result.stderr, /sent 999, failed 1 in/);
    } finally {
      await server.close();
    }
  });

  it('reads stdin, skips blank lines, keeps CRLF lines intact in --failed-out, prints delivered ids in order', async () => {
    let calls = 0;
    const server = await startRecordingServer((request, index) => {
      calls++;
      const title = JSON.parse(request.body.toString()).event.title as string;
      return title === 'rejected' ? { status: 400, body: '{"error":"title not allowed"}' } : accepted(request, index);
    });
    try {
      const ids = [randomUUID(), randomUUID(), randomUUID()];
      const rejectedLine = `{"id":"${ids[1]}","title":"rejected"}\r`;
      const input = `{"id":"${ids[0]}","title":"a"}\r\n\n   \n${rejectedLine}\n{"id":"${ids[2]}","title":"c"}`;
      const failedOut = join(dir, 'failed-crlf.ndjson');
      const result = await runCli(['event', 'send', '--ndjson', '-', '--failed-out', failedOut], {
        input,
        env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN },
      });
      assert.equal(result.code, 9, result.stderr);
      assert.equal(calls, 3);
      assert.equal(result.stdout, `${ids[0]}\n${ids[2]}\n`);
      assert.equal(await readFile(failedOut, 'utf8'), `${rejectedLine}\n`);
      assert.match(result.stderr, /line 4/);
      assert.match(result.stderr, /title not allowed/);
    } finally {
      await server.close();
    }
  });

  it('writes each id to stdout while the input is still open (results in blocks, not held until the end)', async () => {
    const server = await startRecordingServer();
    const stdin = new PassThrough();
    try {
      const [first, second] = [randomUUID(), randomUUID()];
      let stdout = '';
      let firstSeen: () => void = () => undefined;
      const seen = new Promise<void>((resolve) => (firstSeen = resolve));
      const run = runCli(['event', 'send', '--ndjson', '-'], {
        stdin,
        env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN },
        onStdout: (chunk) => {
          stdout += chunk.toString();
          if (stdout.includes(first)) firstSeen();
        },
      });
      stdin.write(`{"id":"${first}","title":"first"}\n`);
      // stdin is still open: the id must come out on its own (the 10 s guard only keeps a failure from hanging).
      const guard = new Promise<void>((_, reject) =>
        setTimeout(() => reject(new Error(`no id on stdout while stdin is open; got '${stdout}'`)), 10_000).unref(),
      );
      await Promise.race([seen, guard]);
      assert.equal(stdout, `${first}\n`);
      stdin.end(`{"id":"${second}","title":"second"}\n`);
      const result = await run;
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, `${first}\n${second}\n`);
    } finally {
      stdin.destroy();
      await server.close();
    }
  });

  it('stops on rejected credentials (exit 4) and keeps every unsent line in --failed-out', async () => {
    const server = await startRecordingServer(() => ({ status: 401, body: '{"error":"bad token"}' }));
    try {
      const lines = eventLines(200);
      const input = join(dir, 'auth.ndjson');
      await writeFile(input, `${lines.join('\n')}\n`);
      const failedOut = join(dir, 'auth-failed.ndjson');
      const result = await runCli(
        ['event', 'send', '--ndjson', input, '--concurrency', '4', '--failed-out', failedOut],
        {
          env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN },
        },
      );
      assert.equal(result.code, 4, result.stderr);
      assert.ok(
        server.requests.length <= 8,
        `sent ${server.requests.length} requests after the credentials were rejected`,
      );
      const kept = (await readFile(failedOut, 'utf8')).trimEnd().split('\n');
      assert.deepEqual([...kept].sort(), [...lines].sort(), 'every line is in --failed-out');
    } finally {
      await server.close();
    }
  });
});

const SAFETY_TOKEN = 'tok-safety-31';

describe('event send --ndjson: nothing is lost, nothing runs away', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir();
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('refuses a --failed-out that is the input file itself (exit 2, nothing sent)', async () => {
    const server = await startRecordingServer();
    try {
      const input = join(dir, 'loop.ndjson');
      await writeFile(input, 'not json\nnot json\n');
      const before = (await stat(input)).size;
      const result = await runCli(['event', 'send', '--ndjson', input, '--failed-out', input], {
        env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: SAFETY_TOKEN },
      });
      assert.equal(result.code, 2);
      assert.match(result.stderr, /is the input itself/);
      assert.equal((await stat(input)).size, before);
      const viaStdin = await runCli(['event', 'send', '--ndjson', '-', '--failed-out', input], {
        input: await readFile(input),
        env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: SAFETY_TOKEN },
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
        env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: SAFETY_TOKEN },
      });
      assert.equal(result.code, 2);
      assert.match(result.stderr, /is a folder, not a file/);
      assert.equal(server.requests.length, 0);
    } finally {
      await server.close();
    }
  });
});
