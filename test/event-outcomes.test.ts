/**
 * Every outcome of an event × text, --json and --quiet × the exit code, for `event send`, `event run` and
 * `event flush` (issue 39.1: a spooled event was called sent). A real server on 127.0.0.1 answers 202, 400,
 * 401 or 503, or nothing listens; --retries 0 keeps it fast. The expected values are the contract's
 * (spec sections 1 and 2, docs/events.md), written here, not read from svcctl: the exit codes of its table
 * (4 for 401, 5 for other 4xx, 6 unreachable or 5xx, 0 for an event `--spool` kept), the id alone on stdout
 * for an event the service has or will have, one JSON document with the HTTP status the server answered,
 * warnings and errors still shown with -q, `event run` ending with the command's own code, and the last line
 * on stderr saying what happened, never "sent" for an event that was not.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { accepted, type RecordingServer, startRecordingServer } from './helpers/recording-server.js';
import { spoolFolderFor } from './helpers/spool-layout.js';
import { tempDir } from './helpers/temp-dirs.js';

type Answer = 'accepted' | 'rejected' | 'unauthorized' | 'failing' | 'nothing';
type Form = 'text' | 'json' | 'quiet';
const FORMS: Form[] = ['text', 'json', 'quiet'];
const FLAGS: Record<Form, string[]> = { text: [], json: ['--json'], quiet: ['--quiet'] };
const TOKEN = 'tok-outcomes-7c2e';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** The contract, per answer of the service: what became of one event, its exit code and the HTTP status seen. */
interface Expected {
  answer: Answer;
  spool: boolean;
  outcome: 'sent' | 'spooled' | 'rejected' | 'unauthorized' | 'failed';
  exit: number;
  status: number | null;
}
const EVENT_CASES: Expected[] = [
  { answer: 'accepted', spool: false, outcome: 'sent', exit: 0, status: 202 },
  { answer: 'accepted', spool: true, outcome: 'sent', exit: 0, status: 202 },
  { answer: 'rejected', spool: true, outcome: 'rejected', exit: 5, status: 400 },
  { answer: 'unauthorized', spool: true, outcome: 'unauthorized', exit: 4, status: 401 },
  { answer: 'failing', spool: false, outcome: 'failed', exit: 6, status: 503 },
  { answer: 'nothing', spool: false, outcome: 'failed', exit: 6, status: null },
  { answer: 'failing', spool: true, outcome: 'spooled', exit: 0, status: 503 },
  { answer: 'nothing', spool: true, outcome: 'spooled', exit: 0, status: null },
];

const servers = new Map<Answer, { baseUrl: string; server?: RecordingServer }>();
before(async () => {
  const answers: Record<Exclude<Answer, 'nothing'>, Parameters<typeof startRecordingServer>[0]> = {
    accepted,
    rejected: () => ({ status: 400, body: '{"error":"title too long"}' }),
    unauthorized: () => ({ status: 401, body: '{"error":"bad token"}' }),
    failing: () => ({ status: 503, body: 'busy' }),
  };
  for (const [answer, responder] of Object.entries(answers)) {
    const server = await startRecordingServer(responder);
    servers.set(answer as Answer, { baseUrl: server.baseUrl, server });
  }
  // A port that was just free: nothing listens on it.
  const gone = await startRecordingServer();
  await gone.close();
  servers.set('nothing', { baseUrl: gone.baseUrl });
});
after(() => Promise.all([...servers.values()].map((s) => s.server?.close())));

/** The last line svcctl wrote to stderr, its hint aside. */
function lastSaid(stderr: string): string {
  const lines = stderr
    .trimEnd()
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('hint:'));
  return lines.at(-1) ?? '';
}

/**
 * The line says the outcome of this event (`id`: the id, or a pattern when nothing else knows it), at the
 * level -q keeps or drops, and never "sent" otherwise.
 */
function assertSays(line: string, id: string, expected: Expected['outcome'], named = false): void {
  const level = { sent: named ? 'svcctl: ' : '', spooled: 'warning: ' }[expected as string] ?? 'error: ';
  assert.match(line, new RegExp(`^${level}event ${id} ${expected}\\b`), `the last line should say ${expected}`);
  if (expected !== 'sent') assert.doesNotMatch(line, /(?<!not )\bsent\b/, line);
}

async function spooledFiles(spool: string, baseUrl: string): Promise<string[]> {
  return (await readdir(spoolFolderFor(spool, baseUrl)).catch(() => [])).filter((n) => n.endsWith('.json'));
}

describe('event send: every outcome × text, --json, --quiet', () => {
  for (const expected of EVENT_CASES) {
    const label = `${expected.answer}${expected.spool ? ' --spool' : ''}: ${expected.outcome}, exit ${expected.exit}`;
    it(label, async () => {
      for (const form of FORMS) {
        const home = await tempDir('svcctl-outcomes-');
        const spool = join(home, 'spool');
        const { baseUrl } = servers.get(expected.answer)!;
        const id = randomUUID();
        const args = ['event', 'send', '--title', 'disk full', '--id', id, '--retries', '0', ...FLAGS[form]];
        if (expected.spool) args.push('--spool', spool);
        const run = await runCli(args, { home, env: { SERVICE_BASE_URL: baseUrl, SERVICE_INGEST_TOKEN: TOKEN } });
        assert.equal(run.code, expected.exit, run.stderr);
        const kept = expected.outcome === 'sent' || expected.outcome === 'spooled';
        if (form === 'json') {
          const lines = run.stdout.trimEnd().split('\n');
          assert.equal(lines.length, 1, run.stdout);
          const document = JSON.parse(lines[0]!);
          assert.equal(document.id, id);
          assert.equal(document.outcome, expected.outcome);
          assert.equal(document.status, expected.status);
          assert.equal(document.attempts, 1);
          if (expected.outcome === 'sent') assert.deepEqual(document.response, { id });
          else assert.equal(typeof document.error, 'string');
          if (expected.outcome === 'spooled')
            assert.equal(document.spooled, join(spoolFolderFor(spool, baseUrl), `${id}.json`));
        } else assert.equal(run.stdout, kept ? `${id}\n` : '');
        if (form === 'quiet' && expected.outcome === 'sent') assert.equal(run.stderr, '');
        else assertSays(lastSaid(run.stderr), id, expected.outcome);
        assert.deepEqual(await spooledFiles(spool, baseUrl), expected.outcome === 'spooled' ? [`${id}.json`] : []);
      }
    });
  }
});

describe('event run: the command exit code stands; every outcome of its event is named on stderr', () => {
  // The wrapped command fails with 3, so an event is sent; it writes nothing, so stdout stays svcctl's to keep empty.
  const failing = ['--', process.execPath, '-e', 'process.exit(3)'];
  for (const expected of EVENT_CASES) {
    const label = `${expected.answer}${expected.spool ? ' --spool' : ''}: ${expected.outcome}, exit 3`;
    it(label, async () => {
      for (const form of FORMS) {
        const home = await tempDir('svcctl-outcomes-');
        const spool = join(home, 'spool');
        const { baseUrl, server } = servers.get(expected.answer)!;
        const before = server?.requests.length ?? 0;
        const args = ['event', 'run', '--title', 'job', '--retries', '0', ...FLAGS[form]];
        if (expected.spool) args.push('--spool', spool);
        const run = await runCli([...args, ...failing], {
          home,
          env: { SERVICE_BASE_URL: baseUrl, SERVICE_INGEST_TOKEN: TOKEN },
        });
        assert.equal(run.code, 3, run.stderr);
        assert.equal(run.stdout, '', 'stdout belongs to the command');
        // The id as the service received it, or as the spool keeps it: found apart from svcctl's words.
        const received = server?.requests.slice(before).map((r) => JSON.parse(r.body.toString('utf8')).event.id);
        const files = await spooledFiles(spool, baseUrl);
        const id = received?.[0] ?? files[0]?.replace(/\.json$/, '') ?? UUID;
        if (form === 'json') {
          const document = JSON.parse(run.stderr.split('\n').find((line) => line.startsWith('{'))!);
          assert.equal(document.outcome, expected.outcome);
          assert.equal(document.status, expected.status);
          assert.match(document.id, new RegExp(`^${id}$`));
        }
        assert.equal(files.length, expected.outcome === 'spooled' ? 1 : 0);
        if (form === 'json' && expected.outcome === 'sent') continue;
        assertSays(lastSaid(run.stderr), id, expected.outcome, true);
      }
    });
  }
});

describe('event flush: every outcome × text, --json, --quiet', () => {
  const FLUSH_CASES = [
    { answer: 'accepted', outcome: 'flushed', exit: 0, counts: [1, 0, 0] },
    // A 4xx other than 401/403 moves the event to rejected/: nothing is left to send.
    { answer: 'rejected', outcome: 'flushed', exit: 0, counts: [0, 0, 1] },
    { answer: 'unauthorized', outcome: 'unauthorized', exit: 4, counts: [0, 1, 0] },
    { answer: 'failing', outcome: 'kept', exit: 6, counts: [0, 1, 0] },
    { answer: 'nothing', outcome: 'kept', exit: 6, counts: [0, 1, 0] },
  ] as const;
  for (const expected of FLUSH_CASES) {
    it(`${expected.answer}: ${expected.outcome}, exit ${expected.exit}`, async () => {
      for (const form of FORMS) {
        const home = await tempDir('svcctl-outcomes-');
        const spool = join(home, 'spool');
        const { baseUrl } = servers.get(expected.answer)!;
        const id = randomUUID();
        const folder = spoolFolderFor(spool, baseUrl);
        await mkdir(folder, { recursive: true, mode: 0o700 });
        await mkdir(spool, { recursive: true, mode: 0o700 });
        const body = { event: { id, title: 'kept', created_at: '2026-01-01T00:00:00.000Z', investigate: false } };
        await writeFile(join(folder, `${id}.json`), JSON.stringify(body), { mode: 0o600 });
        await writeFile(join(folder, 'base-url'), `${baseUrl}\n`, { mode: 0o600 });
        const args = ['event', 'flush', '--spool', spool, '--retries', '0', ...FLAGS[form]];
        const run = await runCli(args, { home, env: { SERVICE_BASE_URL: baseUrl, SERVICE_INGEST_TOKEN: TOKEN } });
        assert.equal(run.code, expected.exit, run.stderr);
        const [flushed, kept, rejected] = expected.counts;
        const said = `flushed ${flushed}, kept ${kept}`;
        if (form === 'json') {
          const document = JSON.parse(run.stdout);
          assert.deepEqual(
            [document.outcome, document.flushed, document.kept, document.rejected],
            [expected.outcome, flushed, kept, rejected],
          );
        } else assert.equal(run.stdout, '');
        if (form === 'quiet' && expected.outcome === 'flushed') assert.doesNotMatch(run.stderr, /flushed/);
        else if (expected.outcome === 'flushed') assert.ok(lastSaid(run.stderr).startsWith(said), run.stderr);
        else assert.ok(lastSaid(run.stderr).startsWith(`error: ${said}`), run.stderr);
        assert.equal(existsSync(join(folder, `${id}.json`)), kept === 1);
      }
    });
  }
});
