/**
 * An event spooled for one deployment is never flushed to another: two real servers on 127.0.0.1, saved as
 * deployments in a temp HOME, the spool at its default place. A flush sends only what was spooled for the base
 * URL it resolves now, signed with the secret given then; a file of an earlier svcctl (no base URL recorded)
 * is sent only with --legacy-to-current.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { accepted, type RecordingServer, startRecordingServer } from './helpers/recording-server.js';
import { spoolFolderFor } from './helpers/spool-layout.js';
import { tempDir } from './helpers/temp-dirs.js';

const STAGING = { SERVICE_INGEST_TOKEN: 'ingest-staging-5e1f', SERVICE_HMAC_SECRET: 'hmac-staging-77a0' };
const PROD = { SERVICE_INGEST_TOKEN: 'ingest-prod-9c3b', SERVICE_HMAC_SECRET: 'hmac-prod-41d2' };

interface World {
  home: string;
  spool: string;
  staging: RecordingServer;
  prod: RecordingServer;
  /** Until set, staging answers 503: the event is spooled. */
  stagingUp: { value: boolean };
  close(): Promise<void>;
}

async function world(): Promise<World> {
  const home = await tempDir('svcctl-spool-deployments-');
  const stagingUp = { value: false };
  const staging = await startRecordingServer((request, index) =>
    stagingUp.value ? accepted(request, index) : { status: 503, body: 'down' },
  );
  const prod = await startRecordingServer();
  for (const args of [
    ['deployment', 'add', 'staging', staging.baseUrl],
    ['deployment', 'add', 'prod', prod.baseUrl],
    ['deployment', 'use', 'staging'],
  ]) {
    const result = await runCli(args, { home });
    assert.equal(result.code, 0, result.stderr);
  }
  return {
    home,
    spool: join(home, '.local', 'state', 'svcctl', 'spool'),
    staging,
    prod,
    stagingUp,
    close: async () => {
      await staging.close();
      await prod.close();
    },
  };
}

const events = async (folder: string): Promise<string[]> =>
  (await readdir(folder).catch(() => [] as string[])).filter((name) => name.endsWith('.json'));

/** The events a server received (a flush also asks the other deployments whether they answer, at /v1/user/login). */
const posted = (server: RecordingServer) => server.requests.filter((request) => request.url.endsWith('/v1/event'));

const titleOf = (body: Buffer): string => JSON.parse(body.toString('utf8')).event.title;
const signature = (secret: string, body: Buffer): string =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

async function useProd(w: World): Promise<void> {
  const result = await runCli(['deployment', 'use', 'prod'], { home: w.home });
  assert.equal(result.code, 0, result.stderr);
}

/** A plain flush as prod: nothing reaches either server, the staging event stays, one line says how to send it. */
async function assertKeptForStaging(w: World): Promise<void> {
  const flush = await runCli(['event', 'flush'], { home: w.home, env: PROD });
  assert.equal(posted(w.prod).length, 0, 'prod received nothing');
  assert.equal(flush.code, 6, flush.stderr);
  assert.match(flush.stderr, /flushed 0, kept 0, left 1: /);
  assert.ok(
    flush.stderr.includes(
      `left 1 event(s) spooled for ${w.staging.baseUrl}, not ${w.prod.baseUrl}; ${w.staging.baseUrl} answers: ` +
        `send them there with 'svcctl event flush --base-url ${w.staging.baseUrl}' and that deployment's ingest token and HMAC secret`,
    ),
    flush.stderr,
  );
  assert.equal((await events(spoolFolderFor(w.spool, w.staging.baseUrl))).length, 1);
}

describe('event flush sends an event only to the base URL it was spooled for', () => {
  it('spooled for staging, flushed while prod is the default: kept; flushed with the staging URL: delivered there', async () => {
    const w = await world();
    try {
      const sent = await runCli(['event', 'send', '--title', 'staging: customer-A', '--spool', '--retries', '0'], {
        home: w.home,
        env: STAGING,
      });
      assert.equal(sent.code, 0, sent.stderr);
      assert.equal(posted(w.staging).length, 1, 'the 503 that had it spooled');
      await useProd(w);
      await assertKeptForStaging(w);

      w.stagingUp.value = true;
      const flush = await runCli(['event', 'flush', '--base-url', w.staging.baseUrl], { home: w.home, env: STAGING });
      assert.equal(flush.code, 0, flush.stderr);
      assert.match(flush.stderr, /flushed 1, kept 0/);
      const [delivered] = posted(w.staging).slice(1);
      assert.equal(posted(w.staging).length, 2);
      assert.equal(titleOf(delivered!.body), 'staging: customer-A');
      assert.equal(delivered!.headers.authorization, `Bearer ${STAGING.SERVICE_INGEST_TOKEN}`);
      assert.equal(delivered!.headers['x-hub-signature-256'], signature(STAGING.SERVICE_HMAC_SECRET, delivered!.body));
      assert.equal(posted(w.prod).length, 0);
      assert.deepEqual(await events(spoolFolderFor(w.spool, w.staging.baseUrl)), []);
    } finally {
      await w.close();
    }
  });

  it('event run --deployment staging --spool, then a plain flush as prod: kept; --deployment staging sends it', async () => {
    const w = await world();
    try {
      await useProd(w);
      const run = await runCli(
        [
          '--deployment',
          'staging',
          'event',
          'run',
          '--spool',
          '--retries',
          '0',
          '--',
          process.execPath,
          '-e',
          'process.exit(3)',
        ],
        { home: w.home, env: STAGING },
      );
      assert.equal(run.code, 3, run.stderr);
      assert.match(run.stderr, /spooled, not sent: .*; it is kept in /);
      await assertKeptForStaging(w);

      w.stagingUp.value = true;
      const flush = await runCli(['--deployment', 'staging', 'event', 'flush'], { home: w.home, env: STAGING });
      assert.equal(flush.code, 0, flush.stderr);
      assert.equal(posted(w.staging).length, 2);
      assert.match(titleOf(posted(w.staging)[1]!.body), /failed \(exit 3\)$/);
      assert.equal(posted(w.prod).length, 0);
    } finally {
      await w.close();
    }
  });

  it('a file of an earlier svcctl (no base URL recorded) is kept, and sent only with --legacy-to-current', async () => {
    const w = await world();
    try {
      await useProd(w);
      const id = '3d5b7a90-1c2e-4f6a-8b9c-0d1e2f3a4b5c';
      const body = JSON.stringify({
        event: { id, title: 'legacy', created_at: '2026-11-20T00:00:00.000Z', investigate: false },
      });
      await mkdir(w.spool, { recursive: true, mode: 0o700 });
      await writeFile(join(w.spool, `${id}.json`), body);

      const plain = await runCli(['event', 'flush'], { home: w.home, env: PROD });
      assert.equal(plain.code, 6, plain.stderr);
      assert.ok(
        plain.stderr.includes(
          `left 1 event(s) spooled by an earlier svcctl, which did not record their base URL: if they are for ${w.prod.baseUrl}, run this flush again with --legacy-to-current`,
        ),
        plain.stderr,
      );
      assert.equal(posted(w.prod).length, 0);
      assert.deepEqual(await events(w.spool), [`${id}.json`]);

      const chosen = await runCli(['event', 'flush', '--legacy-to-current'], { home: w.home, env: PROD });
      assert.equal(chosen.code, 0, chosen.stderr);
      assert.match(chosen.stderr, /flushed 1, kept 0/);
      assert.equal(posted(w.prod).length, 1);
      assert.equal(posted(w.prod)[0]!.body.toString('utf8'), body);
      assert.equal(
        posted(w.prod)[0]!.headers['x-hub-signature-256'],
        signature(PROD.SERVICE_HMAC_SECRET, Buffer.from(body)),
      );
      assert.deepEqual(await events(w.spool), []);
      assert.equal(posted(w.staging).length, 0);
    } finally {
      await w.close();
    }
  });
});
