/**
 * `svcctl token --refresh` as a credential helper, in-process: --header and --json-headers, one login for concurrent
 * refreshes, and `login --save --remember-password` refused where no OS keychain can be reached. What a start-up
 * loads, the helper's argv and the keychain itself: token-helper.e2e.test.ts.
 */
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { runCli } from './helpers/cli.js';
import { makeJwt, nowPlus } from './helpers/jwt.js';
import { EMAIL, PASSWORD, startLoginServer, type LoginServer } from './helpers/login-server.js';
import { credentialsFile, filesUnder, saveToken } from './helpers/saved-token.js';
import { tempDir } from './helpers/temp-dirs.js';

let server: LoginServer;
before(async () => {
  server = await startLoginServer();
});
after(() => server?.close());

test('--header and --json-headers print the saved token in the two header formats; --json with either is exit 2', async () => {
  const home = await tempDir();
  const token = makeJwt({ email: EMAIL, iat: nowPlus(0), exp: nowPlus(3600) });
  await saveToken(home, server.baseUrl, token);
  const env = { SERVICE_BASE_URL: server.baseUrl };
  const header = await runCli(['token', '--refresh', '--header'], { home, env });
  assert.equal(header.code, 0, header.stderr);
  assert.equal(header.stdout, `Authorization: Bearer ${token}\n`);
  const json = await runCli(['token', '--refresh', '--json-headers'], { home, env });
  assert.equal(json.code, 0, json.stderr);
  assert.deepEqual(JSON.parse(json.stdout), { Authorization: `Bearer ${token}` });
  const both = await runCli(['--json', 'token', '--header'], { home, env });
  assert.equal(both.code, 2);
  assert.match(both.stderr, /--header and --json cannot be combined/);
});

test('concurrent refreshes of an expired token share one login and print the same token', async () => {
  const home = await tempDir();
  await saveToken(home, server.baseUrl, makeJwt({ email: EMAIL, iat: nowPlus(-7200), exp: nowPlus(-3600) }));
  const before = server.logins().length;
  const runs = await Promise.all(
    Array.from({ length: 5 }, () =>
      runCli(['token', '--refresh', '--header'], {
        home,
        env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_PASSWORD: PASSWORD },
      }),
    ),
  );
  for (const run of runs) assert.equal(run.code, 0, run.stderr);
  assert.equal(server.logins().length - before, 1);
  const issued = server.issued[server.issued.length - 1]!;
  assert.deepEqual(new Set(runs.map((run) => run.stdout)), new Set([`Authorization: Bearer ${issued}\n`]));
  await assert.rejects(
    stat(`${credentialsFile(home)}.refresh.svcctl.lock`),
    { code: 'ENOENT' },
    'the lock file was left behind',
  );
});

test('login --save --remember-password without an OS keychain is refused before logging in, and nothing is written', async () => {
  const home = await tempDir();
  const before = server.requests.length;
  // No D-Bus session bus in this environment: no Secret Service can be reached.
  const result = await runCli(['login', '--save', '--remember-password', '--email', EMAIL], {
    home,
    env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_PASSWORD: PASSWORD, DBUS_SESSION_BUS_ADDRESS: undefined },
  });
  assert.equal(result.code, 7, result.stderr);
  assert.match(result.stderr, /cannot remember the password: no OS keychain is available/);
  assert.match(result.stderr, /never writes a password to a plain file/);
  assert.equal(server.requests.length, before);
  await assert.rejects(stat(credentialsFile(home)), { code: 'ENOENT' });
  for (const file of await filesUnder(home))
    assert.ok(!(await readFile(file, 'utf8')).includes(PASSWORD), `the password is in ${file}`);
});
