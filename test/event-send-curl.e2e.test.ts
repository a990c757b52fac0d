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
        assert.ok(
          !printed.stdout.includes(TOKEN) && !printed.stdout.includes(vector.secret),
          'no secret value in the command',
        );
        // Asynchronous: the recording server runs in this process and must keep answering.
        await promisify(execFile)('bash', ['-c', printed.stdout], {
          env: cleanEnv(dir, { SERVICE_INGEST_TOKEN: TOKEN }),
          timeout: 15_000,
        });
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

  it('with --token-file, the command reads that file (not $SERVICE_INGEST_TOKEN) and the token stays out of argv', async () => {
    const server = await startRecordingServer();
    try {
      await writeFile(join(dir, 'token.txt'), `${TOKEN}\n`);
      const printed = await runCli(
        ['event', 'send', '--title', 'from a file', '--token-file', 'token.txt', '--print-curl'],
        {
          cwd: dir,
          env: { SERVICE_BASE_URL: server.baseUrl },
        },
      );
      assert.equal(printed.code, 0, printed.stderr);
      assert.ok(!printed.stdout.includes(TOKEN), 'no token value in the command');
      assert.ok(printed.stdout.includes(`"$(cat '${join(dir, 'token.txt')}')"`), printed.stdout);
      assert.ok(
        !/curl[^\n]*token\.txt/.test(printed.stdout),
        'the file is read in the header process substitution, not on the curl line',
      );
      // Run from another folder with no token variable: the absolute path still finds the file.
      await promisify(execFile)('bash', ['-c', printed.stdout], {
        env: cleanEnv(dir, { SERVICE_INGEST_TOKEN: 'wrong' }),
        cwd: '/',
        timeout: 15_000,
      });
      assert.equal(server.requests.length, 1);
      assert.equal(server.requests[0]!.headers.authorization, `Bearer ${TOKEN}`);
    } finally {
      await server.close();
    }
  });

  it('with the legacy SVC_INGEST_TOKEN, the command reads $SVC_INGEST_TOKEN', async () => {
    const server = await startRecordingServer();
    try {
      const printed = await runCli(['event', 'send', '--title', 'legacy', '--print-curl'], {
        env: { SERVICE_BASE_URL: server.baseUrl, SVC_INGEST_TOKEN: TOKEN },
      });
      assert.equal(printed.code, 0, printed.stderr);
      assert.match(printed.stdout, /"\$SVC_INGEST_TOKEN"/);
      await promisify(execFile)('bash', ['-c', printed.stdout], {
        env: cleanEnv(dir, { SVC_INGEST_TOKEN: TOKEN }),
        timeout: 15_000,
      });
      assert.equal(server.requests[0]!.headers.authorization, `Bearer ${TOKEN}`);
    } finally {
      await server.close();
    }
  });

  it('without any token, it prints the command for $SERVICE_INGEST_TOKEN with a warning on stderr', async () => {
    const printed = await runCli(['event', 'send', '--title', 'none', '--print-curl'], {
      env: { SERVICE_BASE_URL: 'http://127.0.0.1:9/api' },
    });
    assert.equal(printed.code, 0, printed.stderr);
    assert.match(printed.stdout, /"\$SERVICE_INGEST_TOKEN"/);
    assert.match(printed.stderr, /warning: no ingest token is set/);
  });
});
