/**
 * svcctl login error classes against real servers on 127.0.0.1: rejected credentials, a wrong base URL, answers
 * without a token, network and TLS failures, and a proxy. The password never shows. The timeout is in
 * http-deadline-caps.test.ts; a CA trusted through NODE_EXTRA_CA_CERTS (read at process start) in
 * http-processes.e2e.test.ts.
 */
import assert from 'node:assert/strict';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { runCli, secretsIn } from './helpers/cli.js';
import { PROXIED_NAME, startForwardProxy, startHttpsLogin } from './helpers/login-network.js';
import { EMAIL, PASSWORD, startLoginServer } from './helpers/login-server.js';
import { startRecordingServer, type Responder } from './helpers/recording-server.js';

const closers: Array<() => Promise<void>> = [];
after(async () => {
  for (const close of closers) await close();
});

const creds = { SERVICE_EMAIL: EMAIL, SERVICE_PASSWORD: PASSWORD };

async function loginAgainst(responder: Responder, args: string[] = []) {
  const server = await startRecordingServer(responder);
  closers.push(server.close);
  const result = await runCli(['login', ...args], { env: { SERVICE_BASE_URL: server.baseUrl, ...creds } });
  assert.equal(result.stdout, '', 'nothing on stdout when login fails');
  assert.deepEqual(secretsIn(result, [PASSWORD]), [], 'the password is never shown');
  assert.ok(!/at \S+ \(.*:\d+:\d+\)/.test(result.stderr), 'no stack trace');
  return { result, server };
}

test('401 and 403 are exit 4 "invalid email or password"', async () => {
  for (const status of [401, 403]) {
    const { result } = await loginAgainst(() => ({ status, body: `{"error":"wrong password ${PASSWORD}"}` }));
    assert.equal(result.code, 4);
    assert.match(result.stderr, /invalid email or password/);
  }
});

test('a wrong password against the login server is exit 4', async () => {
  const server = await startLoginServer();
  closers.push(server.close);
  const result = await runCli(['login'], {
    env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_EMAIL: EMAIL, SERVICE_PASSWORD: 'not-the-password' },
  });
  assert.equal(result.code, 4);
  assert.match(result.stderr, /invalid email or password/);
  assert.ok(!result.stderr.includes('not-the-password'));
});

test('404 is exit 5 with a hint to check the base URL', async () => {
  const { result } = await loginAgainst(() => ({ status: 404, body: 'Not Found' }));
  assert.equal(result.code, 5);
  // Not /404/ alone: the port in the URL may hold those digits.
  assert.match(
    result.stderr,
    /^error: POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/user\/login answered HTTP 404: Not Found$/m,
  );
  assert.match(result.stderr, /hint: check the base URL \(http:\/\/127\.0\.0\.1:\d+\/api\)/);
});

test('another 4xx is exit 5 with the service message, the password redacted', async () => {
  const { result } = await loginAgainst(() => ({
    status: 422,
    body: JSON.stringify({ error: `password ${PASSWORD} is too short` }),
  }));
  assert.equal(result.code, 5);
  assert.match(result.stderr, /HTTP 422/);
  assert.match(result.stderr, /password \*\*\* is too short/);
});

test('a 2xx without access_token is exit 6 with the body shortened; secret-looking members are hidden', async () => {
  const long = 'x'.repeat(2000);
  const { result } = await loginAgainst(() => ({
    status: 200,
    body: JSON.stringify({ token: 'abc.def.ghi', note: long, echo: PASSWORD }),
  }));
  assert.equal(result.code, 6);
  assert.match(result.stderr, /has no access_token/);
  assert.match(result.stderr, /"token":"\*\*\*"/);
  assert.ok(!result.stderr.includes('abc.def.ghi'));
  assert.match(result.stderr, /more characters\)/);
  assert.ok(result.stderr.length < 1000, 'the body is shortened');
});

test('a 2xx HTML page is exit 6, shown as its words shortened (no markup)', async () => {
  const { result } = await loginAgainst(() => ({
    status: 200,
    headers: { 'content-type': 'text/html' },
    body: `<html><body>Sign in ${'y'.repeat(1000)}</body></html>`,
  }));
  assert.equal(result.code, 6);
  assert.match(result.stderr, /is not JSON: an HTML page without a title: "Sign in y{72}… \(928 more characters\)"\n/);
});

test('5xx and 429 are exit 6 with the service message', async () => {
  const { result } = await loginAgainst(() => ({ status: 503, body: '{"error":"maintenance"}' }));
  assert.equal(result.code, 6);
  assert.match(result.stderr, /HTTP 503\): maintenance/);
  const limited = await loginAgainst(() => ({ status: 429, body: 'slow down' }));
  assert.equal(limited.result.code, 6);
  assert.match(limited.result.stderr, /HTTP 429/);
});

test('a dropped connection and a refused connection are exit 6 with the cause in words', async () => {
  const { result } = await loginAgainst(() => 'reset');
  assert.equal(result.code, 6);
  assert.match(
    result.stderr,
    /cannot log in: (connection to 127\.0\.0\.1:\d+ was reset|request to .* failed: socket hang up)/,
  );

  const probe = createHttpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  const refused = await runCli(['login'], { env: { SERVICE_BASE_URL: `http://127.0.0.1:${port}/api`, ...creds } });
  assert.equal(refused.code, 6);
  assert.match(refused.stderr, /connection refused by 127\.0\.0\.1:\d+/);
});

test('an untrusted TLS certificate is exit 6 naming the problem and NODE_EXTRA_CA_CERTS', async () => {
  const tls = await startHttpsLogin();
  closers.push(tls.close);
  const untrusted = await runCli(['login'], { env: { SERVICE_BASE_URL: tls.baseUrl, ...creds } });
  assert.equal(untrusted.code, 6);
  assert.match(
    untrusted.stderr,
    /TLS certificate of 127\.0\.0\.1:\d+ was not accepted \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\)/,
  );
  assert.match(untrusted.stderr, /NODE_EXTRA_CA_CERTS/);
});

test('HTTP_PROXY carries the login to a plain http deployment that is not loopback', async () => {
  const server = await startLoginServer();
  closers.push(server.close);
  const proxy = await startForwardProxy();
  closers.push(proxy.close);
  const port = new URL(server.baseUrl).port;
  const result = await runCli(['login', '--allow-http'], {
    env: { SERVICE_BASE_URL: `http://${PROXIED_NAME}:${port}/api`, HTTP_PROXY: proxy.url, ...creds },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, `${server.issued.at(-1)}\n`);
  assert.deepEqual(proxy.seen, [`CONNECT ${PROXIED_NAME}:${port}`]);
});
