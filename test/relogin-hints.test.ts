/**
 * The hints of `token --refresh` and `mcp proxy` when there is nothing to log in with (issue 49.7): on a machine
 * without an OS keychain (no D-Bus session bus here, so no Secret Service) `login --save --remember-password` is
 * exit 7, so a hint must not propose it; it says why and what works instead, as doctor's fix lines do.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runCli } from './helpers/cli.js';
import { makeJwt, nowPlus } from './helpers/jwt.js';
import { EMAIL, startLoginServer, type LoginServer } from './helpers/login-server.js';
import { saveToken } from './helpers/saved-token.js';
import { tempDir } from './helpers/temp-dirs.js';

let server: LoginServer;
before(async () => {
  server = await startLoginServer();
});
after(() => server?.close());

const NO_KEYCHAIN = { DBUS_SESSION_BUS_ADDRESS: undefined };

function assertTrueHere(stderr: string): void {
  assert.doesNotMatch(stderr, /--remember-password/, 'a command this machine refuses (exit 7)');
  assert.match(stderr, /this machine has no OS keychain \(.+\), so svcctl cannot log in again by itself/);
  assert.match(stderr, /run `svcctl login --save` again when the token expires/);
}

test('the keychain this hint counts on is missing here: login --save --remember-password is exit 7', async () => {
  const result = await runCli(['login', '--save', '--remember-password', '--email', EMAIL], {
    home: await tempDir(),
    env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_PASSWORD: 'x', ...NO_KEYCHAIN },
  });
  assert.equal(result.code, 7, result.stderr);
});

test('token --refresh with no saved token and no email: exit 4, a hint that works without a keychain', async () => {
  const result = await runCli(['token', '--refresh', '--header'], {
    home: await tempDir(),
    env: { SERVICE_BASE_URL: server.baseUrl, ...NO_KEYCHAIN },
  });
  assert.equal(result.code, 4, result.stderr);
  assert.match(result.stderr, /has no email to log in again/);
  assert.match(result.stderr, /give the email with --email or SERVICE_EMAIL/);
  assertTrueHere(result.stderr);
});

test('token --refresh of an expired token without a password: exit 4, a hint that works without a keychain', async () => {
  const home = await tempDir();
  await saveToken(home, server.baseUrl, makeJwt({ email: EMAIL, iat: nowPlus(-7200), exp: nowPlus(-3600) }));
  const result = await runCli(['token', '--refresh', '--header'], {
    home,
    env: { SERVICE_BASE_URL: server.baseUrl, ...NO_KEYCHAIN },
  });
  assert.equal(result.code, 4, result.stderr);
  assert.match(result.stderr, /has no password to log in again/);
  assertTrueHere(result.stderr);
});

test('mcp proxy with no token and nothing to log in with: exit 4, a hint that works without a keychain', async () => {
  const result = await runCli(['mcp', 'proxy'], {
    home: await tempDir(),
    env: { SERVICE_BASE_URL: server.baseUrl, ...NO_KEYCHAIN },
    input: '',
  });
  assert.equal(result.code, 4, result.stderr);
  assertTrueHere(result.stderr);
});

test('mcp proxy --auth password without a password: exit 4, a hint that works without a keychain', async () => {
  const result = await runCli(['mcp', 'proxy', '--auth', 'password', '--email', EMAIL], {
    home: await tempDir(),
    env: { SERVICE_BASE_URL: server.baseUrl, ...NO_KEYCHAIN },
    input: '',
  });
  assert.equal(result.code, 4, result.stderr);
  assert.match(result.stderr, /the proxy has no password to send/);
  assertTrueHere(result.stderr);
});
