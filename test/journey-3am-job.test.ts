/**
 * The 3 a.m. job, as a journey: a nightly job wrapped in `event run --spool` fails while the service is down (nothing
 * listens at the saved base URL), then the service comes back and `event flush` runs. What svcctl says is checked
 * by another route each time: the job's own exit code, the spool files on disk, and the sandbox's own record of what
 * it received (its events file and request log), never only svcctl's output. In-process: the sandbox (startDev) and
 * svcctl (runCli) run in the test process; only the failing job is a real process.
 */
import assert from 'node:assert/strict';
import { chmod, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, connect, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { type DevServer, type ReadyLine, startDev } from './helpers/dev-sandbox.js';
import { pollUntil } from './helpers/poll.js';
import { spoolFolderFor } from './helpers/spool-layout.js';
import { tempDir } from './helpers/temp-dirs.js';

/** The README's table: 0 success, 4 authentication rejected, 6 service unreachable; `event run` exits with the job's own code. */
const EXIT = { ok: 0, authRejected: 4, unavailable: 6 } as const;
const JOB_EXIT = 3;

interface Night {
  home: string;
  job: string;
  eventsFile: string;
  tokenFile: string;
  secretFile: string;
}

async function night(): Promise<Night> {
  const home = await tempDir('svcctl-3am-');
  const job = join(home, 'backup.sh');
  await writeFile(job, `#!/bin/sh\necho "backup: disk full" >&2\nexit ${JOB_EXIT}\n`);
  await chmod(job, 0o755);
  const etc = await tempDir('svcctl-3am-etc-');
  return {
    home,
    job,
    eventsFile: join(await tempDir('svcctl-3am-sandbox-'), 'events.ndjson'),
    tokenFile: join(etc, 'ingest-token'),
    secretFile: join(etc, 'hmac-secret'),
  };
}

/** The secrets of the sandbox now running, in the files the cron line reads (a restarted sandbox has new ones). */
async function keepSecrets(n: Night, ready: ReadyLine): Promise<void> {
  const [webhook] = ready.webhooks;
  await writeFile(n.tokenFile, `${webhook!.ingest_token}\n`, { mode: 0o600 });
  await writeFile(n.secretFile, `${webhook!.hmac_secret}\n`, { mode: 0o600 });
}

const secretFlags = (n: Night): string[] => ['--token-file', n.tokenFile, '--hmac-secret-file', n.secretFile];

/** The crontab's backup line, as svcctl runs it: no SERVICE_BASE_URL, the saved deployment gives it. */
const runJob = (n: Night, label: string, json = false) =>
  runCli(
    [...(json ? ['--json'] : []), 'event', 'run', '--spool', ...secretFlags(n), '--label', `job=${label}`, '--', n.job],
    {
      home: n.home,
    },
  );

const flush = (n: Night) => runCli(['event', 'flush', ...secretFlags(n)], { home: n.home });

/** The events the sandbox stored, by its own file (one line per event, written before its 202). */
async function storedIds(n: Night): Promise<string[]> {
  const text = await readFile(n.eventsFile, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { event: { id: string } }).event.id);
}

const lastLine = (text: string): string => text.trimEnd().split('\n').at(-1) ?? '';

/** The flush's result line (a hint may follow it). */
const flushLine = (text: string): string => text.split('\n').find((line) => /\bflushed \d+, kept \d+/.test(line)) ?? '';

/** The event POSTs in the sandbox's request log. */
const eventPosts = (dev: DevServer): string[] =>
  dev
    .stderr()
    .split('\n')
    .filter((line) => / POST \/api\/v1\/event /.test(line));

async function spooledFiles(folder: string): Promise<string[]> {
  const names = await readdir(folder).catch(() => [] as string[]);
  return names.filter((name) => name.endsWith('.json')).sort();
}

/** Every event file under a folder, at any depth (a claim of a flush, `.inflight/<id>.json.<pid>`, included). */
async function everyEventFile(folder: string): Promise<string[]> {
  const names = await readdir(folder, { recursive: true }).catch(() => [] as string[]);
  return names.filter((name) => /\.json(\.\d+)?$/.test(name));
}

describe('the 3 a.m. job: the service is down, then back', () => {
  it('spooled while down (the job’s exit code, the file on disk), flushed once when back, nothing twice', async () => {
    const n = await night();
    const first = await startDev(['--events-file', n.eventsFile]);
    const baseUrl = first.ready.base_url;
    const port = new URL(baseUrl).port;
    await keepSecrets(n, first.ready);
    const saved = await runCli(['deployment', 'add', 'sandbox', baseUrl], { home: n.home });
    assert.equal(saved.code, EXIT.ok, saved.stderr);
    assert.match(await readFile(join(n.home, '.config', 'svcctl', 'config.toml'), 'utf8'), new RegExp(baseUrl));
    await first.stop();

    // 02:30 and 03:30: the job fails twice while nothing listens at the saved base URL.
    const spoolFolder = spoolFolderFor(join(n.home, '.local', 'state', 'svcctl', 'spool'), baseUrl);
    const spooledIds: string[] = [];
    const spooledEvents = new Map<string, unknown>();
    for (const label of ['backup', 'rotate']) {
      const run = await runJob(n, label);
      assert.equal(run.code, JOB_EXIT, `event run exits with the job's own code\n${run.stderr}`);
      assert.match(run.stderr, /backup: disk full/, "the job's own output is passed on");
      const line = lastLine(run.stderr);
      const said = /^warning: event (\S+) spooled, not sent: .*it is kept in (\S+) for (\S+) only/.exec(line);
      assert.ok(said, `the last line says spooled, not sent: ${line}`);
      assert.doesNotMatch(run.stderr, /\bsent: HTTP/, 'nothing claims the event was sent');
      const [, id, file, forUrl] = said;
      assert.equal(forUrl, baseUrl);
      assert.equal(file, join(spoolFolder, `${id}.json`), 'the file named is where the spool keeps it');
      const body = JSON.parse(await readFile(file!, 'utf8')) as { event: { id: string } };
      assert.equal(body.event.id, id, 'the spooled file holds that event');
      spooledIds.push(id!);
      spooledEvents.set(id!, body.event);
    }
    // 04:30, a script that reads --json: the same outcome as a value, and the file it names is on disk.
    const scripted = await runJob(n, 'cleanup', true);
    assert.equal(scripted.code, JOB_EXIT, scripted.stderr);
    const result = JSON.parse(scripted.stderr.split('\n').find((line) => line.startsWith('{'))!);
    assert.equal(result.outcome, 'spooled');
    assert.equal(result.status, null, 'no HTTP status: nothing answered');
    assert.equal(result.attempts, 1, 'a refused loopback is not retried');
    assert.equal(result.spooled, join(spoolFolder, `${result.id}.json`));
    const body = JSON.parse(await readFile(result.spooled, 'utf8')) as { event: { id: string } };
    assert.equal(body.event.id, result.id);
    spooledIds.push(result.id);
    spooledEvents.set(result.id, body.event);
    assert.deepEqual(await spooledFiles(spoolFolder), spooledIds.map((id) => `${id}.json`).sort());
    assert.deepEqual(await storedIds(n), [], 'the sandbox received nothing while it was down');

    // The */5 flush while the service is still down: exit 6, everything stays.
    const early = await flush(n);
    assert.equal(early.code, EXIT.unavailable, early.stderr);
    assert.match(flushLine(early.stderr), /^error: flushed 0, kept 3\b/);
    assert.deepEqual(await spooledFiles(spoolFolder), spooledIds.map((id) => `${id}.json`).sort());

    // The service is back on the same port (with new secrets, which the cron line's files now hold).
    const back = await startDev(['--port', port, '--events-file', n.eventsFile]);
    try {
      assert.equal(back.ready.base_url, baseUrl);
      // The cron line's files still hold the secrets of the sandbox before the restart: refused, and nothing lost.
      const stale = await flush(n);
      assert.equal(stale.code, EXIT.authRejected, stale.stderr);
      assert.match(flushLine(stale.stderr), /^error: flushed 0, kept 3\b/);
      assert.deepEqual(
        await spooledFiles(spoolFolder),
        [...spooledIds].sort().map((id) => `${id}.json`),
      );
      assert.deepEqual(await storedIds(n), [], 'the sandbox stored nothing it refused');
      const refused = await pollUntil('the refused POST in the request log', () => {
        const posts = eventPosts(back);
        return posts.length > 0 && posts.every((line) => / POST \/api\/v1\/event 401 /.test(line)) && posts.length;
      });
      await keepSecrets(n, back.ready);
      const flushed = await flush(n);
      assert.equal(flushed.code, EXIT.ok, flushed.stderr);
      assert.match(flushLine(flushed.stderr), /^flushed 3, kept 0$/);

      assert.deepEqual((await storedIds(n)).sort(), [...spooledIds].sort(), 'each spooled event arrived, once');
      const stored = (await readFile(n.eventsFile, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { event: { id: string; payload: string } }).event);
      for (const event of stored) assert.deepEqual(event, spooledEvents.get(event.id), 'the event as it was spooled');
      const labels = stored.map((event) => JSON.parse(event.payload).labels).sort((a, b) => (a.job < b.job ? -1 : 1));
      assert.deepEqual(
        labels.map((l: Record<string, string>) => [l.job, l.exit_code]),
        [
          ['backup', String(JOB_EXIT)],
          ['cleanup', String(JOB_EXIT)],
          ['rotate', String(JOB_EXIT)],
        ],
        'the events are the three jobs’, with the exit code the job really had',
      );
      assert.deepEqual(await everyEventFile(spoolFolder), [], 'the spool is empty, claims and all');
      await pollUntil('three more event POSTs in the request log', () => eventPosts(back).length === refused + 3);
      assert.ok(
        eventPosts(back)
          .slice(refused)
          .every((line) => / POST \/api\/v1\/event 202 /.test(line)),
        eventPosts(back).join('\n'),
      );

      // The next */5 run: nothing to send, and nothing is sent.
      const again = await flush(n);
      assert.equal(again.code, EXIT.ok, again.stderr);
      assert.equal(flushLine(again.stderr), 'flushed 0, kept 0');
      assert.deepEqual((await storedIds(n)).sort(), [...spooledIds].sort(), 'nothing arrived twice');
      assert.equal(eventPosts(back).length, refused + 3, 'the second flush posted nothing');
    } finally {
      await back.stop();
    }
  });
});

/**
 * A relay in front of the sandbox on `port` that loses the answer to the first event POST: the request reaches the
 * sandbox (which stores the event), the connection is cut before a byte of the answer comes back.
 */
async function relayLosingFirstAnswer(port: number, sandboxPort: number): Promise<Server> {
  let lost = false;
  const relay = createServer((client) => {
    client.once('data', (first: Buffer) => {
      const upstream = connect(sandboxPort, '127.0.0.1');
      const lose = !lost && first.toString('latin1').startsWith('POST /api/v1/event ');
      if (lose) lost = true;
      // The sandbox answers only to its own address (421 otherwise), as a proxy in front of a service would say it.
      upstream.write(
        first.toString('latin1').replace(/^host: 127\.0\.0\.1:\d+\r$/im, `host: 127.0.0.1:${sandboxPort}\r`),
        'latin1',
      );
      client.pipe(upstream);
      if (lose)
        upstream.once('data', () => {
          client.destroy();
          upstream.destroy();
        });
      else upstream.pipe(client);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
  });
  await new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve));
  return relay;
}

/** A port nothing listens on now (taken and given back), for a base URL that is down until the relay starts. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('the 3 a.m. job: the answer to the flush is lost on the way back', () => {
  it('the service stored the event; the flush that did not hear so sends it again, and the service keeps it once', async () => {
    const n = await night();
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}/api`;
    const dev = await startDev(['--events-file', n.eventsFile]);
    const relay = { server: undefined as Server | undefined };
    try {
      await keepSecrets(n, dev.ready);
      assert.equal((await runCli(['deployment', 'add', 'svc', baseUrl], { home: n.home })).code, EXIT.ok);
      const run = await runJob(n, 'backup');
      assert.equal(run.code, JOB_EXIT, run.stderr);
      const id = /^warning: event (\S+) spooled, not sent/.exec(lastLine(run.stderr))?.[1];
      assert.ok(id, run.stderr);

      relay.server = await relayLosingFirstAnswer(port, Number(new URL(dev.ready.base_url).port));
      const spoolFolder = spoolFolderFor(join(n.home, '.local', 'state', 'svcctl', 'spool'), baseUrl);
      // Until one flush says the event is delivered (exit 0): each run is what cron's next */5 would be.
      let flushes = 0;
      for (let code: number | null = null; code !== EXIT.ok && flushes < 3; flushes++) {
        const flushed = await flush(n);
        code = flushed.code;
        assert.ok(code === EXIT.ok || code === EXIT.unavailable, `exit ${code}: ${flushed.stderr}`);
        if (code === EXIT.ok) assert.equal(flushLine(flushed.stderr), 'flushed 1, kept 0');
        else
          assert.deepEqual(await everyEventFile(spoolFolder), [`${id}.json`], 'a flush that did not hear 2xx keeps it');
      }
      assert.deepEqual(await storedIds(n), [id], 'stored once');
      assert.deepEqual(await everyEventFile(spoolFolder), [], 'nothing left to send');
      await pollUntil('the second POST in the request log', () => eventPosts(dev).length >= 2);
      const notes = eventPosts(dev).map((line) => / (accepted|duplicate) /.exec(line)?.[1]);
      assert.equal(notes[0], 'accepted', eventPosts(dev).join('\n'));
      assert.ok(
        notes.slice(1).every((note) => note === 'duplicate'),
        `every later POST was the same id, recognised: ${eventPosts(dev).join('\n')}`,
      );
    } finally {
      await new Promise((resolve) => (relay.server ? relay.server.close(resolve) : resolve(undefined)));
      await dev.stop();
    }
  });
});
