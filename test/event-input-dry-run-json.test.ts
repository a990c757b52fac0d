import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const TOKEN = 'tok-json-preview';
const SECRET = 'hmac-json-preview';
const env = { SERVICE_BASE_URL: 'http://127.0.0.1:9/api', SERVICE_INGEST_TOKEN: TOKEN, SERVICE_HMAC_SECRET: SECRET };
const sign = (body: string): string => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;

describe('event send --json with --dry-run / --print-curl', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir();
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('--json --dry-run prints one JSON document: method, url, headers (token as ***), body', async () => {
    const result = await runCli(
      [
        '--json',
        'event',
        'send',
        '--title',
        'caf\u00e9',
        '--id',
        '00000000-0000-4000-8000-000000000000',
        '--created-at',
        '2026-11-22T02:31:00Z',
        '--dry-run',
      ],
      { env },
    );
    assert.equal(result.code, 0, result.stderr);
    const body =
      '{"event":{"id":"00000000-0000-4000-8000-000000000000","title":"caf\u00e9","created_at":"2026-11-22T02:31:00.000Z","investigate":false,"payload":"{}"}}';
    assert.deepEqual(JSON.parse(result.stdout), {
      method: 'POST',
      url: 'http://127.0.0.1:9/api/v1/event',
      headers: {
        'Content-Type': 'application/json',
        Authorization: 'Bearer ***',
        'X-Hub-Signature-256': sign(body),
        'Content-Length': String(Buffer.byteLength(body)),
      },
      body,
    });
    assert.ok(!result.stdout.includes(TOKEN) && !result.stdout.includes(SECRET));
  });

  it('--json --ndjson --dry-run prints one JSON line per request, bodies byte for byte with --raw', async () => {
    const lines = [
      '{"event":{"id":"00000000-0000-4000-8000-000000000001","title":"a","created_at":"2026-11-22T02:31:00Z"}}',
      '{"event": {"id":"00000000-0000-4000-8000-000000000002", "title":"b", "created_at":"2026-11-22T02:31:00+01:00"}}',
    ];
    const file = join(dir, 'two.ndjson');
    await writeFile(file, `${lines[0]}\n\n${lines[1]}\n`);
    const result = await runCli(['--json', 'event', 'send', '--ndjson', file, '--raw', '--dry-run'], { env });
    assert.equal(result.code, 0, result.stderr);
    const printed = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(printed.length, 2);
    assert.deepEqual(
      printed.map((request) => request.body),
      lines,
    );
    assert.deepEqual(
      printed.map((request) => request.headers['X-Hub-Signature-256']),
      lines.map(sign),
    );
  });

  it('--json --print-curl is a usage error (exit 2): a curl command is not JSON', async () => {
    const result = await runCli(['--json', 'event', 'send', '--title', 'x', '--print-curl'], { env });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--json and --print-curl cannot be combined/);
    assert.equal(result.stdout, '');
  });
});
