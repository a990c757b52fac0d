/**
 * What another process does with svcctl's output or start-up: the command `event send --print-curl` prints, run by
 * bash and curl, sends the same bytes; and a private CA given in NODE_EXTRA_CA_CERTS, which Node reads once when a
 * process starts, is trusted by login, also through an HTTPS proxy.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cleanEnv, runCli, spawnCli } from './helpers/cli.js';
import { PROXIED_NAME, startForwardProxy, startHttpsLogin } from './helpers/login-network.js';
import { EMAIL, PASSWORD } from './helpers/login-server.js';
import { startRecordingServer } from './helpers/recording-server.js';
import { hmacVectors } from './helpers/vectors.js';
import { tempDir } from './helpers/temp-dirs.js';

const TOKEN = 'tok-curl-4242';

describe('event send --print-curl: the command run by bash and curl', { concurrency: true }, () => {
  let dir: string;
  before(async () => {
    dir = await tempDir();
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
      await writeFile(join(dir, 'token.txt'), `${TOKEN}\n`, { mode: 0o600 });
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
});

describe('login trusts the CA of NODE_EXTRA_CA_CERTS (read at process start)', { concurrency: true }, () => {
  const creds = { SERVICE_EMAIL: EMAIL, SERVICE_PASSWORD: PASSWORD };

  it('a self-signed deployment is trusted with its certificate in NODE_EXTRA_CA_CERTS', async () => {
    const tls = await startHttpsLogin();
    try {
      const trusted = await spawnCli(['login'], {
        env: { SERVICE_BASE_URL: tls.baseUrl, NODE_EXTRA_CA_CERTS: tls.certFile, ...creds },
      });
      assert.equal(trusted.code, 0, trusted.stderr);
      assert.equal(trusted.stdout, `${tls.token}\n`);
    } finally {
      await tls.close();
    }
  });

  it('HTTPS_PROXY carries the login to an https deployment; never for a loopback one', async () => {
    const [tls, proxy] = await Promise.all([startHttpsLogin(), startForwardProxy()]);
    try {
      const port = new URL(tls.baseUrl).port;
      const env = {
        // Loopback is never proxied: the deployment gets a name that only the test's proxy maps to 127.0.0.1.
        SERVICE_BASE_URL: `https://${PROXIED_NAME}:${port}/api`,
        NODE_EXTRA_CA_CERTS: tls.certFile,
        HTTPS_PROXY: proxy.url,
        ...creds,
      };
      const viaProxy = await spawnCli(['login'], { env });
      assert.equal(viaProxy.code, 0, viaProxy.stderr);
      assert.equal(viaProxy.stdout, `${tls.token}\n`);
      assert.deepEqual(proxy.seen, [`CONNECT ${PROXIED_NAME}:${port}`]);

      const loopback = await spawnCli(['login'], { env: { ...env, SERVICE_BASE_URL: tls.baseUrl } });
      assert.equal(loopback.code, 0, loopback.stderr);
      assert.equal(proxy.seen.length, 1, 'loopback: the proxy saw nothing more');
    } finally {
      await Promise.all([tls.close(), proxy.close()]);
    }
  });
});
