import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, secretsIn } from './helpers/cli.js';
import { startRecordingServer, type RecordedRequest } from './helpers/recording-server.js';
import { hmacVectors } from './helpers/vectors.js';
import { tempDir } from './helpers/temp-dirs.js';

const TOKEN = 'ingest-token-7f3a9c';
const SECRET = 'whsec-demo';

/** Recomputes the signature of what the server received, independently of svcctl. */
function expectedSignature(request: RecordedRequest, secret: string): string {
  return `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(request.body).digest('hex')}`;
}

describe('event send', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir();
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const eventVectors = hmacVectors().filter((v) => v.body.toString('utf8').includes('"event"'));
  // One test per vector below: with no vector read, there would be no test and nothing failing.
  it('reads the four event vectors of test/fixtures/vectors', () => {
    assert.deepEqual(
      eventVectors.map((vector) => vector.name),
      ['event-compact', 'event-pretty-crlf', 'unicode-title', 'escaped-slashes'],
    );
  });
  for (const vector of eventVectors) {
    it(`sends the ${vector.name} vector byte for byte with --raw and its exact signature`, async () => {
      const server = await startRecordingServer();
      try {
        const file = join(dir, `${vector.name}.json`);
        await writeFile(file, vector.body);
        const result = await runCli(['event', 'send', file, '--raw'], {
          env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN, SERVICE_HMAC_SECRET: vector.secret },
        });
        assert.equal(result.code, 0, result.stderr);
        assert.equal(server.requests.length, 1);
        const [request] = server.requests;
        assert.equal(request!.method, 'POST');
        assert.equal(request!.url, '/api/v1/event');
        assert.ok(request!.body.equals(vector.body), 'body bytes differ');
        assert.equal(request!.headers['x-hub-signature-256'], vector.signature);
        assert.equal(request!.headers['x-hub-signature-256'], expectedSignature(request!, vector.secret));
        assert.equal(request!.headers.authorization, `Bearer ${TOKEN}`);
        assert.equal(request!.headers['content-type'], 'application/json');
        assert.equal(result.stdout, `${JSON.parse(vector.body.toString('utf8')).event.id}\n`);
        assert.deepEqual(secretsIn(result, [TOKEN, vector.secret]), []);
      } finally {
        await server.close();
      }
    });
  }

  it('builds a compact body from flags, in the contract member order, with a unicode title', async () => {
    const server = await startRecordingServer();
    try {
      const title = 'Déploiement échoué — 数据库 🔥';
      const result = await runCli(
        [
          'event',
          'send',
          '--title',
          title,
          '--investigate',
          '--source',
          'monitoring',
          '--severity',
          'critical',
          '--message',
          'CPU > 95% for 5m',
          '--label',
          'env=production',
          '--label',
          'service=api',
          '--id',
          '6f1c2a4e-8b7d-4c3e-9f0a-1b2c3d4e5f60',
          '--created-at',
          '2026-11-22T03:31:00+01:00',
        ],
        { env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN, SERVICE_HMAC_SECRET: SECRET } },
      );
      assert.equal(result.code, 0, result.stderr);
      const [request] = server.requests;
      const expected =
        `{"event":{"id":"6f1c2a4e-8b7d-4c3e-9f0a-1b2c3d4e5f60","title":"${title}","created_at":"2026-11-22T02:31:00.000Z",` +
        `"investigate":true,"payload":"{\\"source\\":\\"monitoring\\",\\"severity\\":\\"critical\\",\\"message\\":\\"CPU > 95% for 5m\\",` +
        `\\"labels\\":{\\"env\\":\\"production\\",\\"service\\":\\"api\\"}}"}}`;
      assert.equal(request!.body.toString('utf8'), expected);
      assert.ok(request!.body.equals(Buffer.from(expected, 'utf8')));
      assert.equal(request!.headers['x-hub-signature-256'], expectedSignature(request!, SECRET));
      assert.equal(result.stdout, '6f1c2a4e-8b7d-4c3e-9f0a-1b2c3d4e5f60\n');
    } finally {
      await server.close();
    }
  });

  it('fills id and created_at for a bare event with an object payload, and serializes it once', async () => {
    const server = await startRecordingServer();
    try {
      const file = join(dir, 'bare.json');
      await writeFile(
        file,
        '{\n  "title": "disk full",\n  "payload": {"severity": "warning", "labels": {"host": "db-2"}}\n}\n',
      );
      const result = await runCli(['event', 'send', file, '--json'], {
        env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN },
      });
      assert.equal(result.code, 0, result.stderr);
      const body = JSON.parse(server.requests[0]!.body.toString('utf8'));
      assert.deepEqual(Object.keys(body.event), ['id', 'title', 'created_at', 'payload']);
      assert.match(body.event.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.match(body.event.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.equal(body.event.payload, '{"severity":"warning","labels":{"host":"db-2"}}');
      assert.equal(server.requests[0]!.headers['x-hub-signature-256'], undefined, 'no signature without a secret');
      const printed = JSON.parse(result.stdout);
      assert.deepEqual(Object.keys(printed), ['id', 'outcome', 'status', 'attempts', 'response']);
      assert.equal(printed.outcome, 'sent');
      assert.equal(printed.id, body.event.id);
      assert.equal(printed.status, 202);
      assert.equal(printed.attempts, 1);
      assert.deepEqual(printed.response, { id: body.event.id });
    } finally {
      await server.close();
    }
  });

  it('signs with a secret file minus its trailing newline', async () => {
    const server = await startRecordingServer();
    try {
      const secretFile = join(dir, 'secret.txt');
      await writeFile(secretFile, `${SECRET}\n`, { mode: 0o600 });
      const tokenFile = join(dir, 'token.txt');
      await writeFile(tokenFile, `${TOKEN}\r\n`, { mode: 0o600 });
      const result = await runCli(
        ['event', 'send', '--title', 'x', '--hmac-secret-file', secretFile, '--token-file', tokenFile],
        {
          env: { SERVICE_BASE_URL: server.baseUrl },
        },
      );
      assert.equal(result.code, 0, result.stderr);
      const [request] = server.requests;
      assert.equal(request!.headers['x-hub-signature-256'], expectedSignature(request!, SECRET));
      assert.equal(request!.headers.authorization, `Bearer ${TOKEN}`);
    } finally {
      await server.close();
    }
  });

  it('reads the event from stdin with -', async () => {
    const server = await startRecordingServer();
    try {
      const input = '{"event":{"title":"from stdin","investigate":false}}';
      const result = await runCli(['event', 'send', '-'], {
        input,
        env: { SERVICE_BASE_URL: server.baseUrl, SVC_INGEST_TOKEN: TOKEN },
      });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(JSON.parse(server.requests[0]!.body.toString()).event.title, 'from stdin');
      assert.equal(server.requests[0]!.headers.authorization, `Bearer ${TOKEN}`, 'legacy SVC_INGEST_TOKEN is accepted');
    } finally {
      await server.close();
    }
  });

  it('prefers SERVICE_INGEST_TOKEN over SVC_INGEST_TOKEN, and --verbose names the variable but not its value', async () => {
    const server = await startRecordingServer();
    try {
      const result = await runCli(['event', 'send', '--title', 'x', '--verbose'], {
        env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN, SVC_INGEST_TOKEN: 'legacy-token-value' },
      });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(server.requests[0]!.headers.authorization, `Bearer ${TOKEN}`);
      assert.match(result.stderr, /ingest token from SERVICE_INGEST_TOKEN/);
      assert.deepEqual(secretsIn(result, [TOKEN, 'legacy-token-value']), []);
    } finally {
      await server.close();
    }
  });
});
