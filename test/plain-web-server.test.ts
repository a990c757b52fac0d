/**
 * A base URL that reaches a plain web server, not the service (a typo in the path, a proxy's page): `status` does not
 * call it the service, `event send` does not retry its 501, and neither prints its HTML page, only status and title.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { startRecordingServer, type RecordingServer } from './helpers/recording-server.js';

const PAGE_501 = `<!DOCTYPE HTML>
<html lang="en">
  <head><meta charset="utf-8"><title>Error response</title></head>
  <body><h1>Error response</h1><p>Error code: 501</p><p>Message: Unsupported method ('POST').</p></body>
</html>
`;
const LISTING = '<!DOCTYPE HTML><html><head><title>Directory listing for /</title></head><body><ul></ul></body></html>';
const SECRETS = { SERVICE_INGEST_TOKEN: 'ing_plainweb0123456789', SERVICE_HMAC_SECRET: 'whsec_plainweb0123456789' };

let web: RecordingServer;
let service: RecordingServer;
before(async () => {
  // As `python3 -m http.server` answers: a listing for GET, 501 and an error page for POST.
  web = await startRecordingServer((request) =>
    request.method === 'GET'
      ? { status: 200, headers: { 'content-type': 'text/html' }, body: LISTING }
      : { status: 501, headers: { 'content-type': 'text/html;charset=utf-8' }, body: PAGE_501 },
  );
  // The service refuses an empty login with a JSON error (as the sandbox does: 400).
  service = await startRecordingServer(() => ({
    status: 400,
    headers: { 'content-type': 'application/json' },
    body: '{"error":"email: must be a non-empty string"}',
  }));
});
after(async () => {
  await web.close();
  await service.close();
});

describe('a plain web server at the base URL', () => {
  it('status: it does not answer as the service (text and --json), naming the status and the page title', async () => {
    const text = await runCli(['status'], { env: { SERVICE_BASE_URL: web.baseUrl } });
    assert.equal(text.code, 0, text.stderr);
    const line = text.stdout.split('\n').find((each) => each.startsWith('answers:'));
    assert.equal(
      line,
      `answers:    no: something answers, but not as the service: POST ${web.baseUrl}/v1/user/login answered HTTP 501 with an HTML page titled "Error response"; check the base URL (…/api)`,
    );
    const json = await runCli(['status', '--json'], { env: { SERVICE_BASE_URL: web.baseUrl } });
    assert.equal(JSON.parse(json.stdout).deployment.answers, false);
    const probe = web.requests.at(-1)!;
    assert.equal(probe.method, 'POST');
    assert.equal(probe.body.toString(), '{}', 'the probe sends no credentials');
  });

  it('status: the service, refusing the empty login with JSON, answers', async () => {
    const json = await runCli(['status', '--json'], { env: { SERVICE_BASE_URL: service.baseUrl } });
    assert.equal(JSON.parse(json.stdout).deployment.answers, true);
  });

  it('event send: one attempt (501 is not retried), exit 5, the page shown as its title', async () => {
    const before = web.requests.length;
    const sent = await runCli(['event', 'send', '--title', 'x'], {
      env: { SERVICE_BASE_URL: web.baseUrl, ...SECRETS },
    });
    assert.equal(sent.code, 5, sent.stderr);
    assert.equal(web.requests.length - before, 1, 'one request');
    assert.match(
      sent.stderr.split('\n')[0]!,
      /^error: event [0-9a-f-]{36} rejected, not sent: nothing at this address takes events \(HTTP 501\): an HTML page titled "Error response"$/,
    );
    assert.doesNotMatch(sent.stderr, /<html|Error code: 501/i);
  });

  it('login: exit 5, the page shown as its title', async () => {
    const login = await runCli(['login', '--password-stdin'], {
      env: { SERVICE_BASE_URL: web.baseUrl, SERVICE_EMAIL: 'a@example.com' },
      input: 'hunter2hunter2\n',
    });
    assert.equal(login.code, 5, login.stderr);
    assert.match(login.stderr, /answered HTTP 501: an HTML page titled "Error response"\n/);
    assert.doesNotMatch(login.stderr, /<html|Error code: 501/i);
  });
});
