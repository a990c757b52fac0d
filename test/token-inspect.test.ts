/** svcctl token inspect through the built CLI, and the JWT helpers it rests on. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from './helpers/cli.js';
import { makeJwt, nowPlus } from './helpers/jwt.js';
import { decodeJwt, describeExpiry, durationInWords, emailOf, relativeTime, summarizeToken } from '../src/auth/jwt.js';

test('durationInWords and relativeTime: at most two units, singular and plural', () => {
  assert.equal(durationInWords(0), '0 seconds');
  assert.equal(durationInWords(1_000), '1 second');
  assert.equal(durationInWords(59_999), '59 seconds');
  assert.equal(durationInWords(3_599_000), '59 minutes');
  assert.equal(durationInWords(3_600_000), '1 hour');
  assert.equal(durationInWords(5_400_000), '1 hour 30 minutes');
  assert.equal(durationInWords(86_400_000 * 2 + 3_600_000 * 3), '2 days 3 hours');
  const now = new Date('2026-11-22T02:31:00Z');
  assert.equal(relativeTime(new Date('2026-11-22T03:30:00Z'), now), 'in 59 minutes');
  assert.equal(relativeTime(new Date('2026-11-22T02:28:00Z'), now), '3 minutes ago');
  assert.equal(
    describeExpiry({ exp: Date.parse('2026-11-22T02:28:00Z') / 1000 }, now),
    'expired 3 minutes ago (2026-11-22T02:28:00.000Z)',
  );
  assert.equal(describeExpiry({}, now), 'has no expiry (no exp claim)');
});

test('emailOf: the email claim, else sub when it looks like an email, else null', () => {
  assert.equal(emailOf({ email: 'a@b.example', sub: 'c@d.example' }), 'a@b.example');
  assert.equal(emailOf({ sub: 'c@d.example' }), 'c@d.example');
  assert.equal(emailOf({ sub: 'user-123' }), null);
  assert.deepEqual(summarizeToken('not-a-jwt'), {
    access_token: 'not-a-jwt',
    token_type: 'Bearer',
    email: null,
    issuer: null,
    expires_at: null,
  });
});

test('decodeJwt rejects what is not a JWT with exit 3 and a message that does not repeat the input', () => {
  for (const text of [
    'hunter2-password',
    'a.b',
    'a.b.c.d',
    '!!.e30.x',
    `${Buffer.from('[1]').toString('base64url')}.e30.x`,
    'e30.bm90IGpzb24.x',
  ]) {
    assert.throws(
      () => decodeJwt(text),
      (error: { exitCode: number; message: string }) => {
        assert.equal(error.exitCode, 3);
        assert.match(error.message, /^not a JWT: /);
        assert.ok(!error.message.includes(text));
        return true;
      },
    );
  }
  assert.throws(() => decodeJwt('a.b.c.d.e'), /encrypted token \(JWE/);
});

test('inspect a token given as an argument: header, claims, expiry in words, on stdout', async () => {
  const token = makeJwt({
    iss: 'https://acme.example.com',
    email: 'ops@acme.example',
    iat: nowPlus(-30),
    exp: nowPlus(3570),
  });
  const result = await runCli(['token', 'inspect', token]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /"alg": "HS256"/);
  assert.match(result.stdout, /"email": "ops@acme\.example"/);
  assert.match(result.stdout, /Expiry: +the token expires in 59 minutes \(/);
  assert.match(result.stdout, /Issued: +.*\(3\d seconds ago\)/);
  assert.match(result.stdout, /not verified/);
  assert.ok(!result.stdout.includes(token.split('.')[2]!), 'the signature is not printed');
});

test('inspect reads stdin with - and without an argument; a newline and a "Bearer " prefix are ignored', async () => {
  const token = makeJwt({ sub: 'ops@acme.example', exp: nowPlus(600) });
  for (const args of [
    ['token', 'inspect', '-'],
    ['token', 'inspect'],
  ]) {
    const result = await runCli(['--json', ...args], { input: `Bearer ${token}\n` });
    assert.equal(result.code, 0, result.stderr);
    const parsed = JSON.parse(result.stdout);
    assert.deepEqual(Object.keys(parsed), ['header', 'claims', 'expires_at', 'expired']);
    assert.deepEqual(parsed.header, { alg: 'HS256', typ: 'JWT' });
    assert.equal(parsed.claims.sub, 'ops@acme.example');
    assert.equal(parsed.expires_at, new Date(parsed.claims.exp * 1000).toISOString());
    assert.equal(parsed.expired, false);
  }
});

test('--check: exit 8 when expired, 0 when valid or without exp', async () => {
  const expired = makeJwt({ exp: nowPlus(-200) });
  const result = await runCli(['--json', 'token', 'inspect', '--check', expired]);
  assert.equal(result.code, 8);
  assert.equal(JSON.parse(result.stdout).expired, true);
  assert.match(result.stderr, /the token expired 3 minutes ago/);
  const human = await runCli(['token', 'inspect', expired]);
  assert.equal(human.code, 0, 'without --check an expired token is only reported');
  assert.match(human.stdout, /the token expired 3 minutes ago/);
  assert.equal((await runCli(['token', 'inspect', '--check', makeJwt({ exp: nowPlus(600) })])).code, 0);
  const noExp = await runCli(['--json', 'token', 'inspect', '--check', makeJwt({ sub: 'x' })]);
  assert.equal(noExp.code, 0);
  assert.deepEqual(JSON.parse(noExp.stdout).expires_at, null);
});

test('an exp (or iat, nbf) that is not a number is exit 3, also with --check, and never reads as "no expiry"', async () => {
  for (const claims of [{ exp: 'x' }, { exp: String(nowPlus(600)) }, { exp: null }, { sub: 'x', iat: 'yesterday' }]) {
    const token = makeJwt(claims);
    for (const args of [
      ['token', 'inspect', '--check', '-'],
      ['--json', 'token', 'inspect', '-'],
    ]) {
      const result = await runCli(args, { input: token });
      assert.equal(result.code, 3, `${JSON.stringify(claims)} ${args.join(' ')}: ${result.stderr}`);
      const name = 'exp' in claims ? 'exp' : 'iat';
      assert.match(result.stderr, new RegExp(`not a valid JWT: the ${name} claim is not a number`));
      assert.ok(!/no expiry/.test(result.stderr));
      assert.equal(result.stdout, '');
    }
  }
  const stringExp = await runCli(['token', 'inspect', '-'], { input: makeJwt({ exp: 'x' }) });
  assert.match(stringExp.stderr, /the exp claim is not a number \(it is a string\)/);
});

test('a string that is not a JWT is exit 3 with a clear message, never echoed', async () => {
  const result = await runCli(['token', 'inspect', '-'], { input: 'my-secret-password\n' });
  assert.equal(result.code, 3);
  assert.match(result.stderr, /not a JWT: expected three base64url parts separated by '\.', found 1/);
  assert.ok(!result.stderr.includes('my-secret-password'));
  assert.equal(result.stdout, '');
  const empty = await runCli(['token', 'inspect', '-'], { input: '\n' });
  assert.equal(empty.code, 2);
});

test('expiry is measured with the run clock: a token read 20 minutes later says it expired', async () => {
  const token = makeJwt({ email: 'ops@acme.example', exp: nowPlus(600) });
  const later = new Date(Date.now() + 20 * 60_000);
  const result = await runCli(['token', 'inspect', token], { now: () => later });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /Expiry: +the token expired 10 minutes ago \(/);
  const today = await runCli(['token', 'inspect', token]);
  assert.match(today.stdout, /Expiry: +the token expires in (9|10) minutes \(/);
});
