import { PassThrough } from 'node:stream';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { useEventFixture } from './helpers/event-fixture.js';

const TOKEN = 'tok-secret-123';

describe('event send: bad input gets a clear error and sends nothing', () => {
  const fixture = useEventFixture(TOKEN);

  it('names every invalid field with exit 3', async () => {
    const file = join(fixture.dir, 'bad.json');
    await writeFile(
      file,
      JSON.stringify({
        event: {
          id: 'not-a-uuid',
          title: '',
          created_at: '2026-11-22T02:31:00',
          investigate: 'yes',
          payload: '{"labels":{"a":1}}',
        },
      }),
    );
    const result = await runCli(['event', 'send', file], { env: fixture.env });
    assert.equal(result.code, 3);
    for (const field of [
      'event.id',
      'event.title',
      'event.created_at',
      'event.investigate',
      'event.payload.labels.a',
    ]) {
      assert.ok(result.stderr.includes(field), `${field} missing from: ${result.stderr}`);
    }
    assert.match(result.stderr, /no time zone/);
    assert.equal(fixture.server.requests.length, 0);
  });

  it('rejects a file that is not JSON with exit 3', async () => {
    const file = join(fixture.dir, 'broken.json');
    await writeFile(file, '{"title": "x",');
    const result = await runCli(['event', 'send', file], { env: fixture.env });
    assert.equal(result.code, 3);
    assert.match(result.stderr, /not valid JSON/);
  });

  it('names the line and column where a file stops being JSON, on one line', async () => {
    const file = join(fixture.dir, 'unquoted.json');
    // Line 3, column 15 is the `h` of `high` (counted by hand: 2 spaces, "severity" is 10, ": " is 2).
    await writeFile(file, '{\n  "title": "x",\n  "severity": high\n}\n');
    const result = await runCli(['event', 'send', file], { env: fixture.env });
    assert.equal(result.code, 3);
    assert.equal(
      result.stderr,
      `error: invalid event in ${file}: not valid JSON at line 3, column 15: unexpected text (strings take double quotes)\n`,
    );
    const cut = join(fixture.dir, 'cut.json');
    await writeFile(cut, '{"title": "x",\n');
    const cutResult = await runCli(['event', 'send', cut], { env: fixture.env });
    assert.match(
      cutResult.stderr,
      /not valid JSON at line 2, column 1: a property name in double quotes is expected\n$/,
    );
    assert.equal(fixture.server.requests.length, 0);
  });

  it('a payload member at the event level: the warning asks whether payload.X was meant', async () => {
    const file = join(fixture.dir, 'severity.json');
    await writeFile(file, '{"title":"x","severity":"high"}');
    const result = await runCli(['event', 'send', file, '--dry-run'], { env: fixture.env });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      /event\.severity: unknown member, passed through as is; did you mean payload\.severity\? \(--severity puts it there\)/,
    );
  });

  it('with --raw, a missing id is a validation error (nothing is filled in)', async () => {
    const file = join(fixture.dir, 'noid.json');
    await writeFile(file, '{"event":{"title":"x","created_at":"2026-11-22T02:31:00Z"}}');
    const result = await runCli(['event', 'send', file, '--raw'], { env: fixture.env });
    assert.equal(result.code, 3);
    assert.match(result.stderr, /event\.id: missing/);
  });

  it('passes an unknown member through with a warning', async () => {
    const file = join(fixture.dir, 'extra.json');
    await writeFile(file, '{"title":"x","team":"sre"}');
    const before = fixture.server.requests.length;
    const result = await runCli(['event', 'send', file], { env: fixture.env });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /event\.team: unknown member/);
    assert.equal(JSON.parse(fixture.server.requests[before]!.body.toString()).event.team, 'sre');
  });

  it('a missing token fails at once with exit 2, naming the variable and flag, without reading stdin', async () => {
    const result = await runCli(['event', 'send', '-'], {
      stdin: new PassThrough(),
      env: { SERVICE_BASE_URL: fixture.server.baseUrl },
    });
    assert.equal(result.timedOut, false);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /SERVICE_INGEST_TOKEN/);
    assert.match(result.stderr, /--token-file/);
  });

  it('a missing event fails at once with exit 2, naming --title', async () => {
    const result = await runCli(['event', 'send'], { stdin: new PassThrough(), env: fixture.env });
    assert.equal(result.timedOut, false);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--title/);
  });

  it('a base URL without /api is exit 2 with the corrected URL suggested', async () => {
    const result = await runCli(['event', 'send', '--title', 'x'], {
      env: { SERVICE_BASE_URL: 'https://acme.example.com/', SERVICE_INGEST_TOKEN: TOKEN },
    });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /must end in \/api/);
    assert.match(result.stderr, /https:\/\/acme\.example\.com\/api\?/);
  });

  it('an unknown flag and a bad flag value are usage errors (exit 2)', async () => {
    const unknown = await runCli(['event', 'send', '--titel', 'x'], { env: fixture.env });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown option/);
    const badRetries = await runCli(['event', 'send', '--title', 'x', '--retries', '-1'], { env: fixture.env });
    assert.equal(badRetries.code, 2);
    const badLabel = await runCli(['event', 'send', '--title', 'x', '--label', 'novalue'], { env: fixture.env });
    assert.equal(badLabel.code, 2);
    assert.match(badLabel.stderr, /key=value/);
    const mixed = await runCli(['event', 'send', '--title', 'x', '--payload', '{}', '--severity', 'low'], {
      env: fixture.env,
    });
    assert.equal(mixed.code, 2);
  });

  it('event flags with FILE: one plain sentence naming the flags', async () => {
    const file = join(fixture.dir, 'x.json');
    await writeFile(file, '{"title":"x"}');
    const one = await runCli(['event', 'send', file, '--title', 'y'], { env: fixture.env });
    assert.equal(one.code, 2);
    assert.match(one.stderr, /^error: event flags \(--title\) cannot be combined with FILE\n/);
    const two = await runCli(['event', 'send', file, '--title', 'y', '--label', 'a=b'], { env: fixture.env });
    assert.match(two.stderr, /^error: event flags \(--title, --label\) cannot be combined with FILE\n/);
  });

  it('"invalid event in X:" has no stray space before the list of problems', async () => {
    const file = join(fixture.dir, 'two-problems.json');
    await writeFile(file, '{"title":"","investigate":"no"}');
    const result = await runCli(['event', 'send', file], { env: fixture.env });
    assert.equal(result.code, 3);
    assert.ok(
      result.stderr.includes(
        `invalid event in ${file}:\n  event.title: must be a non-empty string\n  event.investigate:`,
      ),
      result.stderr,
    );
    const single = join(fixture.dir, 'one-problem.json');
    await writeFile(single, '{"title":""}');
    const one = await runCli(['event', 'send', single], { env: fixture.env });
    assert.ok(one.stderr.includes(`invalid event in ${single}: event.title: must be a non-empty string`), one.stderr);
  });

  it('a missing file is exit 2 naming the file', async () => {
    const result = await runCli(['event', 'send', join(fixture.dir, 'nope.json')], { env: fixture.env });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /no such file/);
  });

  it('--dry-run prints the request with secrets as *** and sends nothing', async () => {
    const before = fixture.server.requests.length;
    const result = await runCli(
      [
        'event',
        'send',
        '--title',
        'x',
        '--id',
        '00000000-0000-4000-8000-000000000000',
        '--created-at',
        '2026-11-22T02:31:00Z',
        '--dry-run',
      ],
      { env: { ...fixture.env, SERVICE_HMAC_SECRET: 'k' } },
    );
    assert.equal(result.code, 0, result.stderr);
    const body =
      '{"event":{"id":"00000000-0000-4000-8000-000000000000","title":"x","created_at":"2026-11-22T02:31:00.000Z","investigate":false,"payload":"{}"}}';
    const signature = `sha256=${(await import('node:crypto')).createHmac('sha256', 'k').update(body).digest('hex')}`;
    assert.equal(
      result.stdout,
      `POST ${fixture.server.baseUrl}/v1/event\nContent-Type: application/json\nAuthorization: Bearer ***\n` +
        `X-Hub-Signature-256: ${signature}\nContent-Length: ${Buffer.byteLength(body)}\n\n${body}\n`,
    );
    assert.ok(!result.stdout.includes(TOKEN));
    assert.equal(fixture.server.requests.length, before);
  });
});
