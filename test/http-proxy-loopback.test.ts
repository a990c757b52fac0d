/**
 * Loopback never goes through HTTP_PROXY / HTTPS_PROXY, whatever NO_PROXY says: the proxy is a recorder on
 * 127.0.0.1 that answers every request and tunnel with 502 and records it, and the real servers are on
 * 127.0.0.1 too. Every transport svcctl has must reach the server and leave the recorder empty. A name that
 * is not loopback (service.test, known only to a forwarding proxy that maps it to 127.0.0.1) still goes
 * through the proxy.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bypassesProxy } from '../src/http/transport.js';
import { runCli } from './helpers/cli.js';
import { eventLines } from './helpers/event-lines.js';
import { PROXIED_NAME, startForwardProxy } from './helpers/login-network.js';
import { EMAIL, PASSWORD, startLoginServer, type LoginServer } from './helpers/login-server.js';
import { startRecordingServer, type RecordingServer } from './helpers/recording-server.js';
import { tempDir } from './helpers/temp-dirs.js';
import { startProxyRecorder } from './helpers/proxy-recorder.js';

const TOKEN = 'ingest-tok-loopback-4711';
const SECRET = 'hmac-sec-loopback-4712';

const startRecorder = startProxyRecorder;

describe('which hosts bypass the proxy', () => {
  for (const host of ['localhost', 'LOCALHOST', 'localhost.', '127.0.0.1', '127.8.9.10', '[::1]', '[::ffff:7f00:1]']) {
    it(`${host}: loopback`, () => assert.equal(bypassesProxy(host), true));
  }
  for (const host of ['app.localhost', 'a.b.localhost']) {
    it(`${host}: a name under localhost (RFC 6761)`, () => assert.equal(bypassesProxy(host), true));
  }
  for (const host of [
    'example.com',
    'localhost.example.com',
    'notlocalhost',
    '127.example.com',
    '128.0.0.1',
    '[::2]',
  ]) {
    it(`${host}: not loopback`, () => assert.equal(bypassesProxy(host), false));
  }
});

describe('a proxy never sees a loopback request', () => {
  let recorder: Awaited<ReturnType<typeof startRecorder>>;
  let events: RecordingServer;
  let login: LoginServer;
  before(async () => {
    [recorder, events, login] = await Promise.all([startRecorder(), startRecordingServer(), startLoginServer()]);
  });
  after(() => Promise.all([recorder.close(), events.close(), login.close()]));

  // NO_PROXY empty, naming something else, or unset: loopback is never proxied either way.
  const proxyEnvs = (): Array<Record<string, string>> => [
    { HTTP_PROXY: recorder.url, HTTPS_PROXY: recorder.url, NO_PROXY: '' },
    { http_proxy: recorder.url, no_proxy: 'example.com' },
    { HTTPS_PROXY: recorder.url },
  ];
  const hosts = (base: string): string[] => {
    const port = new URL(base).port;
    return [`http://127.0.0.1:${port}/api`, `http://localhost:${port}/api`];
  };

  it('event send (one event: the ingest token and the signature)', async () => {
    for (const proxy of proxyEnvs())
      for (const baseUrl of hosts(events.baseUrl)) {
        const before = events.requests.length;
        const result = await runCli(['event', 'send', '--title', 'x', '--retries', '0'], {
          env: { SERVICE_BASE_URL: baseUrl, SERVICE_INGEST_TOKEN: TOKEN, SERVICE_HMAC_SECRET: SECRET, ...proxy },
        });
        assert.equal(result.code, 0, `${baseUrl} ${JSON.stringify(proxy)}: ${result.stderr}`);
        assert.equal(events.requests.length, before + 1);
        assert.deepEqual(recorder.seen, []);
      }
  });

  it('event send --ndjson (the batch pool)', async () => {
    const dir = await tempDir('svcctl-proxy-loopback-');
    const input = join(dir, 'batch.ndjson');
    await writeFile(input, `${eventLines(20).join('\n')}\n`);
    for (const proxy of proxyEnvs()) {
      const before = events.requests.length;
      const result = await runCli(['event', 'send', '--ndjson', input, '--concurrency', '4', '--retries', '0'], {
        env: { SERVICE_BASE_URL: events.baseUrl, SERVICE_INGEST_TOKEN: TOKEN, SERVICE_HMAC_SECRET: SECRET, ...proxy },
      });
      assert.equal(result.code, 0, `${JSON.stringify(proxy)}: ${result.stderr}`);
      assert.equal(events.requests.length, before + 20);
      assert.deepEqual(recorder.seen, []);
    }
  });

  it('login --password-stdin (the password)', async () => {
    for (const proxy of proxyEnvs())
      for (const baseUrl of hosts(login.baseUrl)) {
        const result = await runCli(['login', '--email', EMAIL, '--password-stdin'], {
          env: { SERVICE_BASE_URL: baseUrl, ...proxy },
          input: `${PASSWORD}\n`,
        });
        assert.equal(result.code, 0, `${baseUrl} ${JSON.stringify(proxy)}: ${result.stderr}`);
        assert.equal(result.stdout, `${login.issued.at(-1)}\n`);
        assert.deepEqual(recorder.seen, []);
      }
  });

  it('status: the probe of the deployment', async () => {
    const home = await tempDir('svcctl-proxy-loopback-status-');
    for (const proxy of proxyEnvs()) {
      const result = await runCli(['status', '--json'], {
        home,
        env: { SERVICE_BASE_URL: events.baseUrl, ...proxy },
      });
      assert.equal(JSON.parse(result.stdout).deployment.answers, true, result.stdout);
      assert.deepEqual(recorder.seen, []);
    }
  });
});

describe('a host that is not loopback still goes through the proxy', () => {
  it('event send to service.test: through the proxy, to the server behind it', async () => {
    const [proxy, events] = await Promise.all([startForwardProxy(), startRecordingServer()]);
    try {
      const port = new URL(events.baseUrl).port;
      const result = await runCli(['event', 'send', '--allow-http', '--title', 'x', '--retries', '0'], {
        env: {
          SERVICE_BASE_URL: `http://${PROXIED_NAME}:${port}/api`,
          SERVICE_INGEST_TOKEN: TOKEN,
          HTTP_PROXY: proxy.url,
          NO_PROXY: 'localhost,127.0.0.1',
        },
      });
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(proxy.seen, [`CONNECT ${PROXIED_NAME}:${port}`]);
      assert.equal(events.requests.length, 1);
    } finally {
      await Promise.all([proxy.close(), events.close()]);
    }
  });
});
