/**
 * A login answer for someone else is not taken as the user's: an unsigned token (alg none, or no alg) and a
 * token for another email are refused (exit 3) before anything is printed or saved; an issuer on another
 * host than the deployment is said once, and a later token from another issuer than the saved one is
 * refused. Real login servers on 127.0.0.1 answer with the tokens each case scripts.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { makeJwt, nowPlus } from './helpers/jwt.js';
import { EMAIL, PASSWORD } from './helpers/login-server.js';
import { startRecordingServer } from './helpers/recording-server.js';
import { credentialsFile } from './helpers/saved-token.js';
import { tempDir } from './helpers/temp-dirs.js';

const segment = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const unsigned = (header: Record<string, unknown>, claims: Record<string, unknown>): string =>
  `${segment(header)}.${segment(claims)}.`;

const claimsFor = (email: string, iss?: string): Record<string, unknown> => ({
  ...(iss === undefined ? {} : { iss }),
  email,
  sub: 'user-1',
  iat: nowPlus(0),
  exp: nowPlus(3600),
});

/** Logs in to a server answering `tokens` in turn, in one HOME; returns each run and the server's base URL. */
async function logins(tokens: string[], args: string[]) {
  const home = await tempDir('svcctl-login-answer-');
  const server = await startRecordingServer((_request, index) => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ access_token: tokens[index] }),
  }));
  try {
    const runs = [];
    for (let i = 0; i < tokens.length; i++) {
      runs.push(
        await runCli(['login', ...args], {
          home,
          env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_EMAIL: EMAIL, SERVICE_PASSWORD: PASSWORD },
        }),
      );
    }
    return { runs, home, baseUrl: server.baseUrl };
  } finally {
    await server.close();
  }
}

const savedTokens = async (home: string): Promise<Record<string, { access_token: string; email: string }>> =>
  JSON.parse(await readFile(credentialsFile(home), 'utf8').catch(() => '{"tokens":{}}')).tokens;

describe('a login answer that is not for the user who logged in', () => {
  it('as written: an alg none token for other@evil.com, issued elsewhere, is neither printed nor saved', async () => {
    const planted = claimsFor('other@evil.com', 'https://evil.example.net');
    for (const header of [{ alg: 'none', typ: 'JWT' }, { alg: 'NONE' }, { typ: 'JWT' }]) {
      for (const args of [['--save'], []]) {
        const { runs, home } = await logins([unsigned(header, planted)], args);
        const [run] = runs;
        assert.equal(run!.code, 3, `${JSON.stringify(header)} ${args}: ${run!.stderr}`);
        const said = header.alg === undefined ? 'no alg' : `alg "${header.alg}"`;
        assert.ok(run!.stderr.includes(`is an unsigned token (${said} in its header)`), run!.stderr);
        assert.match(run!.stderr, /svcctl neither prints nor saves it/);
        assert.equal(run!.stdout, '');
        assert.deepEqual(await savedTokens(home), {});
      }
    }
  });

  it('a signed token for another email is refused; the same email in other letter case is saved', async () => {
    const other = makeJwt(claimsFor('other@evil.com'));
    const sameInCapitals = makeJwt(claimsFor(EMAIL.toUpperCase()));
    const { runs, home, baseUrl } = await logins([other, sameInCapitals], ['--save']);
    assert.equal(runs[0]!.code, 3, runs[0]!.stderr);
    assert.match(runs[0]!.stderr, new RegExp(`is a token for "other@evil\\.com", not for ${EMAIL}, who logged in`));
    assert.equal(runs[0]!.stdout, '');
    assert.equal(runs[1]!.code, 0, runs[1]!.stderr);
    const saved = await savedTokens(home);
    assert.deepEqual(Object.keys(saved), [baseUrl]);
    assert.equal(saved[baseUrl]!.access_token, sameInCapitals);
    assert.equal(saved[baseUrl]!.email, EMAIL.toUpperCase());
  });
});

describe("the token's issuer", () => {
  it('on another host: said at the first save; a later token from another issuer is refused, the saved one kept', async () => {
    const first = makeJwt(claimsFor(EMAIL, 'https://idp.example.org/'));
    const again = makeJwt({ ...claimsFor(EMAIL, 'https://idp.example.org'), jti: 'second' });
    const moved = makeJwt(claimsFor(EMAIL, 'https://evil.example.net'));
    const { runs, home, baseUrl } = await logins([first, again, moved], ['--save']);
    assert.equal(runs[0]!.code, 0, runs[0]!.stderr);
    assert.match(runs[0]!.stderr, /the token was issued by "https:\/\/idp\.example\.org\/", not by 127\.0\.0\.1:\d+/);
    assert.match(runs[0]!.stderr, /A later login whose token names another issuer is refused/);
    assert.equal(runs[1]!.code, 0, runs[1]!.stderr);
    assert.doesNotMatch(runs[1]!.stderr, /issued by/, 'the same issuer (a trailing slash aside) is not said again');
    assert.equal(runs[2]!.code, 3, runs[2]!.stderr);
    assert.match(
      runs[2]!.stderr,
      /is a token issued by "https:\/\/evil\.example\.net", but the token saved for it was issued by "https:\/\/idp\.example\.org"/,
    );
    assert.match(runs[2]!.stderr, /svcctl logout/);
    assert.equal(runs[2]!.stdout, '');
    assert.equal((await savedTokens(home))[baseUrl]!.access_token, again);
  });

  it("the deployment's own origin, or none, is not said", async () => {
    const { runs } = await logins(
      [makeJwt(claimsFor(EMAIL)), makeJwt(claimsFor(EMAIL, 'https://evil.example.net'))],
      [],
    );
    assert.equal(runs[0]!.code, 0, runs[0]!.stderr);
    assert.doesNotMatch(runs[0]!.stderr, /issued by/);
    assert.equal(runs[1]!.code, 0, runs[1]!.stderr);
    assert.match(runs[1]!.stderr, /issued by "https:\/\/evil\.example\.net", not by 127\.0\.0\.1:\d+/);
    assert.doesNotMatch(runs[1]!.stderr, /later login/, 'without --save nothing is remembered');
  });
});
