/**
 * One rule says which names hold a secret (issue 38.6, src/redaction/secret-names.ts): the shell's working folders
 * (PWD, OLDPWD) are not secrets, MYSQL_PWD and a Cookie are; `login` masks the members of an answer it shows by the
 * same rule instead of a regex of its own.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { EMAIL, PASSWORD } from './helpers/login-server.js';
import { startRecordingServer } from './helpers/recording-server.js';
import { isSecretName } from '../src/redaction/secret-names.js';

describe('the secret-name rule', () => {
  it('PWD and OLDPWD are paths; names with a secret word or segment are secrets', () => {
    const names = ['PWD', 'OLDPWD', 'MYSQL_PWD', 'DB_PW', 'Cookie', 'Set-Cookie', 'accessKey', 'X-Auth', 'bypass'];
    assert.deepEqual(
      names.filter((name) => isSecretName(name)),
      ['MYSQL_PWD', 'DB_PW', 'Cookie', 'Set-Cookie', 'accessKey', 'X-Auth'],
    );
  });

  const closers: Array<() => Promise<void>> = [];
  after(() => Promise.all(closers.map((close) => close())));

  it("login: an answer without a token shows the members the rule names as '***' (passwd, credential, a cookie)", async () => {
    const hidden = { passwd: 'pw-9a8b7c6d', credential: 'cr-1f2e3d4c', session_cookie: 'ck-5a6b7c8d' };
    const server = await startRecordingServer(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...hidden, user: 'ops' }),
    }));
    closers.push(server.close);
    const result = await runCli(['login'], {
      env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_EMAIL: EMAIL, SERVICE_PASSWORD: PASSWORD },
    });
    assert.equal(result.code, 6, result.stderr);
    assert.match(result.stderr, /has no access_token/);
    for (const [name, value] of Object.entries(hidden)) {
      assert.ok(!result.stderr.includes(value), `${name} shown: ${result.stderr}`);
      assert.ok(result.stderr.includes(`"${name}":"***"`), result.stderr);
    }
    assert.ok(result.stderr.includes('"user":"ops"'), result.stderr);
  });
});
