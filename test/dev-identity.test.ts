/**
 * `svcctl dev` login and identity provider: POST /api/v1/user/login, the
 * OpenID discovery document and /userinfo, driven over plain HTTP and by the
 * built `svcctl login`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { httpRequest, startDev, type DevServer } from './helpers/dev-sandbox.js';

const decode = (part: string): Record<string, unknown> => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

describe('svcctl dev: login and identity provider', () => {
  let dev: DevServer;
  let origin: string;
  const login = (body: unknown, contentType = 'application/json') =>
    httpRequest(`${dev.ready.base_url}/v1/user/login`, {
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'content-type': contentType },
    });

  before(async () => {
    dev = await startDev([
      '--user',
      'alice@example.com:correct horse:battery',
      '--user',
      'bob@example.com',
      '--token-ttl',
      '120',
    ]);
    origin = new URL(dev.ready.base_url).origin;
  });
  after(() => dev?.stop());

  it('lists the users; a user given without a password gets a random one', () => {
    assert.deepEqual(
      dev.ready.users.map((u) => u.email),
      ['alice@example.com', 'bob@example.com'],
    );
    assert.equal(dev.ready.users[0]?.password, 'correct horse:battery');
    assert.ok((dev.ready.users[1]?.password.length ?? 0) >= 12);
    assert.equal(dev.ready.mcp_url, `${origin}/mcp`);
  });

  it('issues an HS256 JWT whose iss is the sandbox origin, with email, sub, iat and exp = iat + --token-ttl', async () => {
    const answer = await login({ email: 'alice@example.com', password: 'correct horse:battery' });
    assert.equal(answer.status, 200, answer.body);
    const token = JSON.parse(answer.body).access_token as string;
    const [header, claims] = token.split('.').map((part, i) => (i < 2 ? decode(part) : part)) as [
      Record<string, unknown>,
      Record<string, unknown>,
    ];
    assert.equal(header.alg, 'HS256');
    assert.equal(claims.iss, origin);
    assert.equal(claims.email, 'alice@example.com');
    assert.equal(typeof claims.sub, 'string');
    assert.equal((claims.exp as number) - (claims.iat as number), 120);
    assert.ok(Math.abs((claims.iat as number) - Date.now() / 1000) < 60);
  });

  it('answers 401 for a wrong password or an unknown user, 400 for a malformed body, 415 for another content type', async () => {
    for (const body of [
      { email: 'alice@example.com', password: 'wrong' },
      { email: 'nobody@example.com', password: 'x' },
    ]) {
      const answer = await login(body);
      assert.equal(answer.status, 401);
      assert.equal(JSON.parse(answer.body).error, 'invalid email or password');
    }
    const notJson = await login('{"email":');
    assert.equal(notJson.status, 400);
    const noPassword = await login({ email: 'alice@example.com' });
    assert.equal(noPassword.status, 400);
    assert.equal(JSON.parse(noPassword.body).field, 'password');
    assert.equal((await login({ email: 'alice@example.com', password: 'x' }, 'text/plain')).status, 415);
  });

  it('serves the discovery document and a userinfo endpoint that accepts its own tokens only', async () => {
    const discovery = await httpRequest(`${origin}/.well-known/openid-configuration`);
    assert.equal(discovery.status, 200);
    const document = JSON.parse(discovery.body);
    assert.equal(document.issuer, origin);
    assert.equal(document.userinfo_endpoint, `${origin}/userinfo`);

    const bob = dev.ready.users[1]!;
    const token = JSON.parse((await login(bob)).body).access_token as string;
    const info = await httpRequest(document.userinfo_endpoint, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(info.status, 200);
    assert.equal(JSON.parse(info.body).email, 'bob@example.com');

    const [h, c] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...decode(c as string), email: 'alice@example.com' })).toString('base64url')}.${token.split('.')[2]}`;
    // `${token}=`: the same signature bytes padded; only the issued spelling passes (why jwt-issuer.ts is not jose).
    for (const bad of [forged, 'not.a.jwt', `${token}x`, `${token}=`]) {
      const answer = await httpRequest(document.userinfo_endpoint, { headers: { authorization: `Bearer ${bad}` } });
      assert.equal(answer.status, 401, bad);
      assert.match(String(answer.headers['www-authenticate']), /error="invalid_token"/);
    }
    const none = await httpRequest(document.userinfo_endpoint);
    assert.equal(none.status, 401);
  });

  it('works with `svcctl login` (token on stdout, issuer from the claims)', async () => {
    const result = await runCli(['login', '--email', 'alice@example.com', '--password-stdin', '--json'], {
      input: 'correct horse:battery\n',
      env: { SERVICE_BASE_URL: dev.ready.base_url },
    });
    assert.equal(result.code, 0, result.stderr);
    const document = JSON.parse(result.stdout);
    assert.equal(document.issuer, origin);
    assert.equal(document.email, 'alice@example.com');
    const info = await httpRequest(`${origin}/userinfo`, {
      headers: { authorization: `Bearer ${document.access_token}` },
    });
    assert.equal(info.status, 200);

    const wrong = await runCli(['login', '--email', 'alice@example.com', '--password-stdin'], {
      input: 'nope\n',
      env: { SERVICE_BASE_URL: dev.ready.base_url },
    });
    assert.equal(wrong.code, 4);
    assert.ok(!dev.stderr().includes('correct horse'), 'the password is not in the sandbox log');
  });
});

describe('svcctl dev: token expiry', () => {
  it('a token is refused by /userinfo once --token-ttl has passed; a token of another run is refused too', async () => {
    let now = Date.parse('2026-11-25T12:00:00.500Z');
    const dev = await startDev(['--token-ttl', '2'], { now: () => new Date(now) });
    const other = await startDev([]);
    try {
      const user = dev.ready.users[0]!;
      const origin = new URL(dev.ready.base_url).origin;
      const otherToken = JSON.parse(
        (
          await httpRequest(`${other.ready.base_url}/v1/user/login`, {
            body: JSON.stringify(other.ready.users[0]),
            headers: { 'content-type': 'application/json' },
          })
        ).body,
      ).access_token as string;
      const answer = await httpRequest(`${dev.ready.base_url}/v1/user/login`, {
        body: JSON.stringify(user),
        headers: { 'content-type': 'application/json' },
      });
      const token = JSON.parse(answer.body).access_token as string;
      assert.equal(
        (await httpRequest(`${origin}/userinfo`, { headers: { authorization: `Bearer ${token}` } })).status,
        200,
      );
      assert.equal(
        (await httpRequest(`${origin}/userinfo`, { headers: { authorization: `Bearer ${otherToken}` } })).status,
        401,
      );
      now += 1400;
      assert.equal(
        (await httpRequest(`${origin}/userinfo`, { headers: { authorization: `Bearer ${token}` } })).status,
        200,
        'still in its lifetime',
      );
      now += 700;
      const expired = await httpRequest(`${origin}/userinfo`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(expired.status, 401);
      await dev.waitForStderr(/GET \/userinfo 401 .*expired/);
    } finally {
      await Promise.all([dev.stop(), other.stop()]);
    }
  });
});
