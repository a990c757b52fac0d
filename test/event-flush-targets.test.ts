/**
 * A restarted sandbox moves the base URL: events spooled for the old one stay in its folder. `event flush` says,
 * per base URL it holds events for, how many and whether that deployment answers; the counts of its warnings and
 * of its last line agree; `--from URL` sends them to the deployment used now, signed for it, asked at a terminal.
 * An empty spool is quiet and needs no token. Real servers on 127.0.0.1, the spool at its default place.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { ENTER, runAtTerminal } from './helpers/fake-terminal.js';
import { type RecordingServer, startRecordingServer } from './helpers/recording-server.js';
import { spoolFolderFor } from './helpers/spool-layout.js';
import { tempDir } from './helpers/temp-dirs.js';

const OLD = { SERVICE_INGEST_TOKEN: 'ingest-old-3a1c', SERVICE_HMAC_SECRET: 'hmac-old-8d2e' };
const NEW = { SERVICE_INGEST_TOKEN: 'ingest-new-71bf', SERVICE_HMAC_SECRET: 'hmac-new-c04a' };
const QUESTION = /Send the 2 event\(s\) spooled for/;

interface Restarted {
  home: string;
  spool: string;
  /** The base URL of the sandbox that was killed: nothing listens there now. */
  dead: string;
  current: RecordingServer;
  /** The spooled bodies, by file name, as written before any flush. */
  bodies: Map<string, Buffer>;
}

const posted = (server: RecordingServer) => server.requests.filter((request) => request.url.endsWith('/v1/event'));
const jsonFiles = async (folder: string): Promise<string[]> =>
  (await readdir(folder).catch(() => [] as string[])).filter((name) => name.endsWith('.json')).sort();

/** Two events spooled for a sandbox that was then killed, and a new one started on another port. */
async function restartedSandbox(): Promise<Restarted> {
  const home = await tempDir('svcctl-flush-targets-');
  const killed = await startRecordingServer();
  const dead = killed.baseUrl;
  await killed.close();
  for (const title of ['first', 'second']) {
    const sent = await runCli(['event', 'send', '--title', title, '--spool', '--retries', '0', '--base-url', dead], {
      home,
      env: OLD,
    });
    assert.equal(sent.code, 0, sent.stderr);
    assert.match(sent.stderr, /spooled, not sent/);
  }
  const spool = join(home, '.local', 'state', 'svcctl', 'spool');
  const folder = spoolFolderFor(spool, dead);
  const bodies = new Map<string, Buffer>();
  for (const name of await jsonFiles(folder)) bodies.set(name, await readFile(join(folder, name)));
  assert.equal(bodies.size, 2);
  return { home, spool, dead, current: await startRecordingServer(), bodies };
}

function assertSentHere(r: Restarted): void {
  const received = posted(r.current);
  assert.equal(received.length, 2);
  for (const request of received) {
    const id = JSON.parse(request.body.toString('utf8')).event.id as string;
    assert.deepEqual(request.body, r.bodies.get(`${id}.json`), 'the exact bytes spooled');
    assert.equal(request.headers.authorization, `Bearer ${NEW.SERVICE_INGEST_TOKEN}`);
    const signature = `sha256=${createHmac('sha256', NEW.SERVICE_HMAC_SECRET).update(request.body).digest('hex')}`;
    assert.equal(request.headers['x-hub-signature-256'], signature);
  }
}

describe('event flush after a restarted sandbox', () => {
  it('says how many events wait for the dead base URL, that it does not answer, and the --from command; counts agree', async () => {
    const r = await restartedSandbox();
    try {
      const flush = await runCli(['event', 'flush', '--base-url', r.current.baseUrl], { home: r.home, env: NEW });
      assert.equal(flush.code, 6, flush.stderr);
      assert.equal(posted(r.current).length, 0, 'nothing sent to the new sandbox unasked');
      const lines = flush.stderr.trim().split('\n');
      assert.match(
        lines[0]!,
        new RegExp(
          `^warning: left 2 event\\(s\\) spooled for ${r.dead}, not ${r.current.baseUrl}; ${r.dead} does not answer \\(`,
        ),
      );
      const fix = `'svcctl event flush --from ${r.dead}' sends them to ${r.current.baseUrl} instead`;
      assert.ok(lines[0]!.endsWith(`${fix}, signed for it`), lines[0]);
      assert.match(lines[1]!, /^error: flushed 0, kept 0, left 2: 2 event\(s\) stay in /);
      assert.ok(lines[2]!.startsWith(`hint: ${fix}`), lines[2]);
      assert.equal((await jsonFiles(spoolFolderFor(r.spool, r.dead))).length, 2);

      const json = await runCli(['--json', 'event', 'flush', '--base-url', r.current.baseUrl], {
        home: r.home,
        env: NEW,
      });
      const document = JSON.parse(json.stdout);
      assert.equal(document.outcome, 'left');
      assert.equal(document.left, 2);
      assert.deepEqual(
        document.elsewhere.map((other: { base_url: string; events: number }) => [other.base_url, other.events]),
        [[r.dead, 2]],
      );
    } finally {
      await r.current.close();
    }
  });

  it('--from the dead URL off a terminal: the flag is the consent; sent byte for byte, signed for the new one', async () => {
    const r = await restartedSandbox();
    try {
      const args = ['event', 'flush', '--base-url', r.current.baseUrl, '--from', r.dead];
      const flush = await runCli(args, { home: r.home, env: NEW });
      assert.equal(flush.code, 0, flush.stderr);
      assert.match(flush.stderr, /^flushed 2, kept 0$/m);
      assertSentHere(r);
      assert.deepEqual(await jsonFiles(spoolFolderFor(r.spool, r.dead)), []);
    } finally {
      await r.current.close();
    }
  });

  it('--from at a terminal asks, naming both URLs: no keeps them, yes sends them; -q does not ask', async () => {
    const r = await restartedSandbox();
    try {
      const args = ['event', 'flush', '--base-url', r.current.baseUrl, '--from', r.dead];
      const no = await runAtTerminal(args, { home: r.home, env: NEW, answers: [[QUESTION, `n${ENTER}`]] });
      assert.ok(no.screen.includes(`spooled for ${r.dead} to ${r.current.baseUrl} instead`), no.screen);
      assert.equal(no.code, 6, no.screen);
      assert.equal(posted(r.current).length, 0);
      assert.equal((await jsonFiles(spoolFolderFor(r.spool, r.dead))).length, 2);

      const yes = await runAtTerminal(args, { home: r.home, env: NEW, answers: [[QUESTION, `y${ENTER}`]] });
      assert.equal(yes.code, 0, yes.screen);
      assertSentHere(r);
    } finally {
      await r.current.close();
    }
    const quiet = await restartedSandbox();
    try {
      const args = ['-q', 'event', 'flush', '--base-url', quiet.current.baseUrl, '--from', quiet.dead];
      const run = await runAtTerminal(args, { home: quiet.home, env: NEW });
      assert.equal(run.code, 0, run.screen);
      assert.doesNotMatch(run.screen, QUESTION);
      assertSentHere(quiet);
    } finally {
      await quiet.current.close();
    }
  });

  it('events only for the dead URL and no token: the report, not "no ingest token"', async () => {
    const r = await restartedSandbox();
    try {
      const flush = await runCli(['event', 'flush', '--base-url', r.current.baseUrl], { home: r.home });
      assert.equal(flush.code, 6, flush.stderr);
      assert.match(flush.stderr, /left 2 event\(s\) spooled for /);
      assert.doesNotMatch(flush.stderr, /no ingest token/);
    } finally {
      await r.current.close();
    }
  });
});

describe('event flush with an empty spool', () => {
  it('exits 0 with no token and no base URL; -q prints nothing', async () => {
    const home = await tempDir('svcctl-flush-empty-');
    const quiet = await runCli(['-q', 'event', 'flush'], { home });
    assert.deepEqual([quiet.code, quiet.stdout, quiet.stderr], [0, '', '']);
    const plain = await runCli(['event', 'flush', '--spool', join(home, 'never-made')], { home });
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.stderr, 'flushed 0, kept 0\n');
  });

  it('a --from that is not a base URL is exit 2 even then', async () => {
    const home = await tempDir('svcctl-flush-empty-');
    const bad = await runCli(['event', 'flush', '--from', 'http://127.0.0.1:4101'], { home });
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /--from must end in \/api/);
  });
});
