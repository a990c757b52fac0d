import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { accepted, startRecordingServer } from './helpers/recording-server.js';
import { spoolFolderFor } from './helpers/spool-layout.js';
import { tempDir } from './helpers/temp-dirs.js';

const TOKEN = 'tok-spool-4a1d';

const files = async (dir: string): Promise<string[]> =>
  (await readdir(dir).catch(() => [])).filter((n) => n.endsWith('.json')).sort();

async function spoolMany(dir: string, count: number): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    ids.push(id);
    const body = JSON.stringify({
      event: { id, title: `spooled ${i}`, created_at: '2026-01-01T00:00:00.000Z', investigate: false },
    });
    await writeFile(join(dir, `${id}.json`), body);
  }
  return ids;
}

const idOf = (body: Buffer): string => JSON.parse(body.toString('utf8')).event.id;

describe('event send --spool and event flush', () => {
  it('service down: exit 0, one file; flush while down keeps it; flush when up delivers the same bytes once', async () => {
    const home = await tempDir();
    const spool = join(home, 'spool');
    let up = false;
    const server = await startRecordingServer((request, index) =>
      up ? accepted(request, index) : { status: 503, body: 'down' },
    );
    try {
      const kept = spoolFolderFor(spool, server.baseUrl);
      const env = { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN, SERVICE_HMAC_SECRET: 'sec-spool-1' };
      const sent = await runCli(
        ['event', 'send', '--title', 'disk full', '--retries', '0', '--spool', spool, '--json'],
        {
          env,
          home,
        },
      );
      assert.equal(sent.code, 0, sent.stderr);
      assert.match(sent.stderr, /spooled/);
      const answer = JSON.parse(sent.stdout);
      assert.equal(answer.outcome, 'spooled');
      assert.equal(answer.status, 503);
      assert.deepEqual(await files(kept), [`${answer.id}.json`]);
      assert.equal((await stat(spool)).mode & 0o777, 0o700);
      assert.equal((await stat(kept)).mode & 0o777, 0o700);
      const bytes = await readFile(join(kept, `${answer.id}.json`));

      const keptRun = await runCli(['event', 'flush', '--spool', spool, '--retries', '0'], { env, home });
      assert.equal(keptRun.code, 6, keptRun.stderr);
      assert.match(keptRun.stderr, /flushed 0, kept 1/);
      assert.equal((await files(kept)).length, 1);

      up = true;
      const before = server.requests.length;
      const flushed = await runCli(['event', 'flush', '--spool', spool], { env, home });
      assert.equal(flushed.code, 0, flushed.stderr);
      assert.match(flushed.stderr, /flushed 1, kept 0/);
      const delivered = server.requests.slice(before);
      assert.equal(delivered.length, 1);
      assert.ok(delivered[0]!.body.equals(bytes), 'the server saw the spooled bytes');
      assert.equal(idOf(delivered[0]!.body), answer.id);
      assert.ok(delivered[0]!.headers['x-hub-signature-256'], 'signed at flush time');
      assert.deepEqual(await files(kept), []);
    } finally {
      await server.close();
    }
  });

  it('a later send that succeeds says how many events are waiting; a 4xx is never spooled', async () => {
    const home = await tempDir();
    const spool = join(home, 'spool');
    const server = await startRecordingServer((request, index) =>
      index === 0 ? accepted(request, index) : { status: 400, body: '{"error":"bad"}' },
    );
    try {
      await spoolMany(spoolFolderFor(spool, server.baseUrl), 2);
      const env = { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN, SERVICE_SPOOL_DIR: spool };
      const ok = await runCli(['event', 'send', '--title', 't', '--spool'], { env, home });
      assert.equal(ok.code, 0, ok.stderr);
      assert.match(ok.stderr, /2 event\(s\) are waiting/);
      const bad = await runCli(['event', 'send', '--title', 't', '--spool'], { env, home });
      assert.equal(bad.code, 5, bad.stderr);
      assert.equal((await files(spoolFolderFor(spool, server.baseUrl))).length, 2);
    } finally {
      await server.close();
    }
  });

  it('a spooled event rejected with 400 moves to rejected/ with the answer', async () => {
    const home = await tempDir();
    const spool = join(home, 'spool');
    const server = await startRecordingServer(() => ({ status: 400, body: '{"error":"title too long"}' }));
    const kept = spoolFolderFor(spool, server.baseUrl);
    const [id] = await spoolMany(kept, 1);
    try {
      const result = await runCli(['event', 'flush', '--spool', spool], {
        env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN },
        home,
      });
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(await files(kept), []);
      assert.deepEqual(await files(join(kept, 'rejected')), [`${id}.json`]);
      assert.match(await readFile(join(kept, 'rejected', `${id}.answer.txt`), 'utf8'), /title too long/);
    } finally {
      await server.close();
    }
  });

  it('two concurrent flushes of 1,000 events deliver each exactly once', async () => {
    const home = await tempDir();
    const spool = join(home, 'spool');
    const server = await startRecordingServer();
    const ids = await spoolMany(spoolFolderFor(spool, server.baseUrl), 1000);
    try {
      const env = { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN };
      const runs = await Promise.all(
        [0, 1].map(() =>
          runCli(['event', 'flush', '--spool', spool, '--concurrency', '8'], { env, home, timeoutMs: 60_000 }),
        ),
      );
      for (const run of runs) assert.equal(run.code, 0, run.stderr);
      const seen = server.requests.map((r) => idOf(r.body)).sort();
      assert.deepEqual(seen, [...ids].sort());
      assert.deepEqual(await files(spoolFolderFor(spool, server.baseUrl)), []);
    } finally {
      await server.close();
    }
  });

  it('--ndjson --spool: lines failing for service reasons are spooled, rejected lines go to --failed-out', async () => {
    const home = await tempDir();
    const spool = join(home, 'spool');
    const failedOut = join(home, 'failed.ndjson');
    const titleOf = (body: Buffer): string => JSON.parse(body.toString('utf8')).event.title;
    const server = await startRecordingServer((request, index) => {
      const title = titleOf(request.body);
      if (title.startsWith('down')) return { status: 503, body: 'busy' };
      if (title.startsWith('bad')) return { status: 400, body: '{"error":"no"}' };
      return accepted(request, index);
    });
    try {
      const lines = `${['ok 1', 'down 2', 'bad 3', 'down 4', 'ok 5'].map((title) => JSON.stringify({ title })).join('\n')}\n`;
      const env = { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN };
      const args = [
        'event',
        'send',
        '--ndjson',
        '-',
        '--retries',
        '0',
        '--spool',
        spool,
        '--failed-out',
        failedOut,
        '--json',
      ];
      const result = await runCli(args, { env, home, input: lines });
      assert.equal(result.code, 9, result.stderr);
      const printed = result.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      // `outcome` says what became of each line; `status` stays the HTTP status the service answered.
      assert.deepEqual(
        printed.map((l) => l.outcome),
        ['sent', 'spooled', 'rejected', 'spooled', 'sent'],
      );
      assert.deepEqual(
        printed.map((l) => l.status),
        [202, 503, 400, 503, 202],
      );
      const folder = spoolFolderFor(spool, server.baseUrl);
      const kept = await Promise.all((await files(folder)).map(async (n) => titleOf(await readFile(join(folder, n)))));
      assert.deepEqual(kept.sort(), ['down 2', 'down 4']);
      assert.equal(await readFile(failedOut, 'utf8'), `${JSON.stringify({ title: 'bad 3' })}\n`);
    } finally {
      await server.close();
    }
  });
});
