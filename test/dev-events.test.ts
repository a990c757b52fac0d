/**
 * `svcctl dev` event ingestion, end to end: the sandbox runs as a process and
 * is driven by the built CLI's `event send` and by Node's own http client.
 */
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { httpRequest, startDev, type DevServer } from './helpers/dev-sandbox.js';
import { tempDir } from './helpers/temp-dirs.js';

const SECRET = "It's a Secret to Everybody";

describe('svcctl dev: POST /api/v1/event', () => {
  let dev: DevServer;
  let dir: string;
  let eventsFile: string;
  let signed: { ingest_token: string; hmac_secret: string | null };
  let open: { ingest_token: string; hmac_secret: string | null };

  before(async () => {
    dir = await tempDir('svcctl-dev-events-');
    eventsFile = join(dir, 'events.ndjson');
    dev = await startDev([
      '--webhook',
      `signed:${SECRET}`,
      '--webhook',
      'open',
      '--events-file',
      eventsFile,
      '--max-body',
      '2000',
    ]);
    signed = dev.ready.webhooks.find((w) => w.name === 'signed')!;
    open = dev.ready.webhooks.find((w) => w.name === 'open')!;
  });
  after(async () => {
    await dev?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const eventUrl = (): string => `${dev.ready.base_url}/v1/event`;
  const storedLines = async (): Promise<Array<{ received_at: string; webhook: string; event: { id: string } }>> =>
    (await readFile(eventsFile, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  const body = (event: Record<string, unknown>): string =>
    JSON.stringify({
      event: {
        id: randomUUID(),
        title: 't',
        created_at: '2026-11-22T02:31:00.000Z',
        investigate: false,
        payload: '{}',
        ...event,
      },
    });
  const post = (bytes: string | Buffer, headers: Record<string, string>) =>
    httpRequest(eventUrl(), { body: bytes, headers: { 'content-type': 'application/json', ...headers } });
  const sign = (bytes: string | Buffer, secret = SECRET): string =>
    `sha256=${createHmac('sha256', secret).update(bytes).digest('hex')}`;

  it('the ready line names both webhooks; the one without a secret has hmac_secret null', () => {
    assert.equal(signed.hmac_secret, SECRET);
    assert.equal(open.hmac_secret, null);
    assert.match(signed.ingest_token, /^\S{20,}$/);
    assert.notEqual(signed.ingest_token, open.ingest_token);
  });

  it('accepts a signed event from `svcctl event send` and appends it to the events file', async () => {
    const result = await runCli(
      ['event', 'send', '--title', 'CPU high', '--severity', 'critical', '--label', 'env=prod'],
      {
        env: {
          SERVICE_BASE_URL: dev.ready.base_url,
          SERVICE_INGEST_TOKEN: signed.ingest_token,
          SERVICE_HMAC_SECRET: SECRET,
        },
      },
    );
    assert.equal(result.code, 0, result.stderr);
    const id = result.stdout.trim();
    const line = (await storedLines()).find((l) => l.event.id === id);
    assert.ok(line, 'the event is in the events file');
    assert.equal(line.webhook, 'signed');
    assert.deepEqual(JSON.parse((line.event as unknown as { payload: string }).payload), {
      severity: 'critical',
      labels: { env: 'prod' },
    });
    assert.ok(!Number.isNaN(Date.parse(line.received_at)));
  });

  it('accepts an unsigned event on a webhook without a secret', async () => {
    const result = await runCli(['event', 'send', '--title', 'deploy done'], {
      env: { SERVICE_BASE_URL: dev.ready.base_url, SERVICE_INGEST_TOKEN: open.ingest_token },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal((await storedLines()).find((l) => l.event.id === result.stdout.trim())?.webhook, 'open');
  });

  it('rejects an unsigned event on a webhook with a secret: the CLI exits 4', async () => {
    const result = await runCli(['event', 'send', '--title', 'unsigned'], {
      env: { SERVICE_BASE_URL: dev.ready.base_url, SERVICE_INGEST_TOKEN: signed.ingest_token },
    });
    assert.equal(result.code, 4, result.stderr);
    assert.match(result.stderr, /X-Hub-Signature-256/);
  });

  it('checks the signature over the exact bytes: a correct one passes, a wrong secret or an added newline gets 401', async () => {
    const bytes = body({});
    const good = await post(bytes, {
      authorization: `Bearer ${signed.ingest_token}`,
      'x-hub-signature-256': sign(bytes),
    });
    assert.equal(good.status, 202, good.body);
    for (const signature of [
      sign(bytes, 'another secret'),
      sign(`${bytes}\n`),
      'sha256=nothex',
      sign(bytes).toUpperCase().replace('SHA256', 'sha256').slice(0, -1),
    ]) {
      const bad = await post(body({}), {
        authorization: `Bearer ${signed.ingest_token}`,
        'x-hub-signature-256': signature,
      });
      assert.equal(bad.status, 401, signature);
      assert.match(JSON.parse(bad.body).error, /X-Hub-Signature-256/);
    }
  });

  it('answers 401 without an ingest token or with an unknown one', async () => {
    const missing = await post(body({}), {});
    assert.equal(missing.status, 401);
    assert.match(String(missing.headers['www-authenticate']), /^Bearer/);
    const unknown = await post(body({}), { authorization: 'Bearer not-a-token' });
    assert.equal(unknown.status, 401);
    assert.equal(JSON.parse(unknown.body).error, 'invalid ingest token');
  });

  it("answers 400 naming the field, by the CLI's validation rules and the wire format", async () => {
    const cases: Array<[string, string]> = [
      [JSON.stringify({ event: { id: randomUUID(), created_at: '2026-11-22T02:31:00Z' } }), 'event.title'],
      [body({ id: 'not-a-uuid' }), 'event.id'],
      [body({ created_at: '2026-11-22T02:31:00' }), 'event.created_at'],
      [body({ investigate: 'yes' }), 'event.investigate'],
      [body({ payload: { source: 'x' } }), 'event.payload'],
      [body({ payload: '{"labels":{"env":1}}' }), 'event.payload.labels.env'],
      [JSON.stringify({ event: { title: 'no id', created_at: '2026-11-22T02:31:00Z' } }), 'event.id'],
      [JSON.stringify({ title: 'bare event' }), 'event'],
      ['{"event": ', 'body'],
    ];
    for (const [bytes, field] of cases) {
      const answer = await post(bytes, { authorization: `Bearer ${open.ingest_token}` });
      assert.equal(answer.status, 400, bytes);
      const error = JSON.parse(answer.body);
      assert.equal(error.field, field, bytes);
      assert.ok(error.error.includes(field), error.error);
    }
  });

  it('answers 413 above --max-body, whether the length is declared or not, and stores nothing', async () => {
    const before = (await storedLines()).length;
    const id = randomUUID();
    const big = body({ id, title: 'x'.repeat(3000) });
    const declared = await post(big, { authorization: `Bearer ${open.ingest_token}` });
    assert.equal(declared.status, 413);
    const chunked = await new Promise<number>((resolve, reject) => {
      import('node:http').then(({ request }) => {
        const req = request(
          eventUrl(),
          {
            method: 'POST',
            headers: { authorization: `Bearer ${open.ingest_token}`, 'content-type': 'application/json' },
            agent: false,
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.write(big.slice(0, 1500));
        setTimeout(() => req.end(big.slice(1500)), 50);
      }, reject);
    });
    assert.equal(chunked, 413);
    assert.equal((await storedLines()).length, before);
  });

  it('answers a repeated id with 200, the same id and "duplicate": true, and stores it once', async () => {
    const id = randomUUID();
    const first = await post(body({ id }), { authorization: `Bearer ${open.ingest_token}` });
    assert.equal(first.status, 202);
    assert.deepEqual(JSON.parse(first.body), { id });
    const again = await post(body({ id, title: 'other bytes, same id' }), {
      authorization: `Bearer ${open.ingest_token}`,
    });
    assert.equal(again.status, 200);
    assert.deepEqual(JSON.parse(again.body), { id, duplicate: true });
    assert.equal((await storedLines()).filter((l) => l.event.id === id).length, 1);
  });

  it('takes an --ndjson batch from the CLI (signed, several in flight)', async () => {
    const ids = Array.from({ length: 12 }, () => randomUUID());
    const file = join(dir, 'batch.ndjson');
    await writeFile(
      file,
      `${ids.map((id, i) => JSON.stringify({ id, title: `batch ${i}`, payload: { source: 'test' } })).join('\n')}\n`,
    );
    const result = await runCli(['event', 'send', '--ndjson', file, '--concurrency', '4', '--json'], {
      env: {
        SERVICE_BASE_URL: dev.ready.base_url,
        SERVICE_INGEST_TOKEN: signed.ingest_token,
        SERVICE_HMAC_SECRET: SECRET,
      },
    });
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.map((l) => l.status),
      Array(12).fill(202),
    );
    const stored = new Set((await storedLines()).map((l) => l.event.id));
    for (const id of ids) assert.ok(stored.has(id), id);
  });

  it('logs one line per request on stderr, without any secret value', async () => {
    const log = await dev.waitForStderr(/POST \/api\/v1\/event 413 /);
    assert.match(log, /POST \/api\/v1\/event 202 \d+\.\dms/);
    assert.match(log, /POST \/api\/v1\/event 401 /);
    assert.match(log, /POST \/api\/v1\/event 413 /);
    for (const secret of [SECRET, signed.ingest_token, open.ingest_token])
      assert.ok(!log.includes(secret), 'a secret is in the log');
  });

  it('refuses a body that is not UTF-8 (400), and never lets a client write its own log lines or escapes', async () => {
    const broken = Buffer.concat([Buffer.from('{"event":{"title":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}}')]);
    const notUtf8 = await post(broken, { authorization: `Bearer ${open.ingest_token}` });
    assert.equal(notUtf8.status, 400);
    assert.match(notUtf8.body, /not valid UTF-8/);
    const forged = body({
      created_at: 'x\n2026-11-22T00:00:00.000Z POST /api/v1/event 202 0.1ms  accepted FORGED\u001b[31mRED',
    });
    const answer = await post(forged, { authorization: `Bearer ${open.ingest_token}` });
    assert.equal(answer.status, 400);
    const log = await dev.waitForStderr(/created_at/);
    assert.ok(!/^\S+ POST \/api\/v1\/event 202 0\.1ms/m.test(log), 'a client forged a log line');
    assert.ok(!log.includes('\u001b'), 'a raw escape character reached the log');
  });
});
