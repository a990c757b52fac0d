import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cleanEnv, makeTempDir, runCli } from './helpers/cli.js';
import { startRecordingServer } from './helpers/recording-server.js';
import { hmacVectors } from './helpers/vectors.js';

const TOKEN = 'tok-curl-4242';

describe('event send --print-curl', () => {
  let dir: string;
  before(async () => {
    dir = await makeTempDir();
  });
  after(() => rm(dir, { recursive: true, force: true }));

  for (const name of ['event-pretty-crlf', 'unicode-title', 'escaped-slashes']) {
    it(`prints a curl command that sends the identical bytes of ${name} (run with bash and curl)`, async () => {
      const vector = hmacVectors().find((v) => v.name === name)!;
      const server = await startRecordingServer();
      try {
        const file = join(dir, `${name}.json`);
        await writeFile(file, vector.body);
        const printed = await runCli(['event', 'send', file, '--raw', '--print-curl'], {
          env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN, SERVICE_HMAC_SECRET: vector.secret },
        });
        assert.equal(printed.code, 0, printed.stderr);
        assert.equal(server.requests.length, 0, 'print-curl sends nothing');
        assert.ok(!printed.stdout.includes(TOKEN) && !printed.stdout.includes(vector.secret), 'no secret value in the command');
        // Asynchronous: the recording server runs in this process and must keep answering.
        await promisify(execFile)('bash', ['-c', printed.stdout], { env: cleanEnv(dir, { SERVICE_INGEST_TOKEN: TOKEN }), timeout: 15_000 });
        assert.equal(server.requests.length, 1);
        const [request] = server.requests;
        assert.ok(request!.body.equals(vector.body), 'curl sent different bytes');
        assert.equal(request!.headers['x-hub-signature-256'], vector.signature);
        assert.equal(request!.headers.authorization, `Bearer ${TOKEN}`);
        assert.equal(request!.headers['content-type'], 'application/json');
      } finally {
        await server.close();
      }
    });
  }
});
