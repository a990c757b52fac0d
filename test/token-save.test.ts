/**
 * login --save, svcctl token [--refresh] and svcctl logout through the built
 * CLI, with a real login server and a temp HOME: the file's mode, the token
 * round trip, one entry per base URL, refresh, and corrupt files.
 */
import { PassThrough } from 'node:stream';
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runCli, secretsIn } from './helpers/cli.js';
import { makeJwt, nowPlus } from './helpers/jwt.js';
import { EMAIL, PASSWORD, startLoginServer, type LoginServer } from './helpers/login-server.js';
import { tempDir } from './helpers/temp-dirs.js';

let server: LoginServer;
let other: LoginServer;
before(async () => {
  server = await startLoginServer();
  other = await startLoginServer();
});
after(async () => {
  await server.close();
  await other.close();
});

const credentialsFile = (home: string) => join(home, '.config', 'svcctl', 'credentials.json');

async function login(home: string, target: LoginServer, extra: string[] = [], env: Record<string, string> = {}) {
  const result = await runCli(['login', '--save', ...extra], {
    home,
    env: { SERVICE_BASE_URL: target.baseUrl, SERVICE_EMAIL: EMAIL, SERVICE_PASSWORD: PASSWORD, ...env },
  });
  assert.equal(result.code, 0, result.stderr);
  return result;
}

test('login --save writes credentials.json with mode 0600, and svcctl token prints the same token', async () => {
  const home = await tempDir();
  const saved = await login(home, server);
  const token = server.issued.at(-1)!;
  assert.equal(saved.stdout, `${token}\n`);
  const file = credentialsFile(home);
  assert.equal((await stat(file)).mode & 0o777, 0o600);
  assert.equal((await stat(join(home, '.config', 'svcctl'))).mode & 0o777, 0o700);
  const onDisk = JSON.parse(await readFile(file, 'utf8'));
  assert.equal(onDisk.tokens[server.baseUrl].access_token, token);
  assert.equal(onDisk.tokens[server.baseUrl].email, EMAIL);

  const printed = await runCli(['token'], { home, env: { SERVICE_BASE_URL: server.baseUrl } });
  assert.equal(printed.code, 0, printed.stderr);
  assert.equal(printed.stdout, `${token}\n`);
  assert.equal(printed.stderr, '');

  const json = await runCli(['--json', 'token'], { home, env: { SERVICE_BASE_URL: `${server.baseUrl}/` } });
  assert.equal(json.code, 0, json.stderr);
  const parsed = JSON.parse(json.stdout);
  assert.equal(parsed.access_token, token);
  assert.equal(parsed.token_type, 'Bearer');
  assert.equal(parsed.email, EMAIL);
  assert.equal(parsed.issuer, server.origin);
});

test('XDG_CONFIG_HOME moves the file', async () => {
  const home = await tempDir();
  const xdg = join(home, 'elsewhere');
  await login(home, server, [], { XDG_CONFIG_HOME: xdg });
  assert.equal((await stat(join(xdg, 'svcctl', 'credentials.json'))).mode & 0o777, 0o600);
  const printed = await runCli(['token'], { home, env: { SERVICE_BASE_URL: server.baseUrl, XDG_CONFIG_HOME: xdg } });
  assert.equal(printed.stdout, `${server.issued.at(-1)}\n`);
});

test('an existing file with mode 0644 is left 0600 after --save, and the other entries are kept', async () => {
  const home = await tempDir();
  const file = credentialsFile(home);
  await mkdir(join(home, '.config', 'svcctl'), { recursive: true });
  const keep = {
    access_token: 'kept.token.value',
    email: 'x@acme.example',
    expires_at: null,
    saved_at: '2026-01-01T00:00:00.000Z',
  };
  await writeFile(file, JSON.stringify({ version: 1, tokens: { 'https://keep.example.com/api': keep } }));
  await chmod(file, 0o644);
  const result = await login(home, server);
  assert.equal(result.stderr.match(/can be read by other users/g)?.length, 1, result.stderr);
  assert.match(result.stderr, /can be read by other users \(mode 644\)/);
  assert.equal((await stat(file)).mode & 0o777, 0o600);
  const onDisk = JSON.parse(await readFile(file, 'utf8'));
  assert.deepEqual(onDisk.tokens['https://keep.example.com/api'], keep);
  assert.equal(onDisk.tokens[server.baseUrl].access_token, server.issued.at(-1));
});

test('one token per base URL; logout forgets only that one', async () => {
  const home = await tempDir();
  await login(home, server);
  const first = server.issued.at(-1)!;
  await login(home, other);
  const second = other.issued.at(-1)!;
  assert.notEqual(first, second);
  assert.equal((await runCli(['token'], { home, env: { SERVICE_BASE_URL: server.baseUrl } })).stdout, `${first}\n`);
  assert.equal((await runCli(['token'], { home, env: { SERVICE_BASE_URL: other.baseUrl } })).stdout, `${second}\n`);

  const logout = await runCli(['logout'], { home, env: { SERVICE_BASE_URL: server.baseUrl } });
  assert.equal(logout.code, 0);
  assert.equal(logout.stdout, '');
  assert.match(logout.stderr, /Logged out of/);
  const gone = await runCli(['token'], { home, env: { SERVICE_BASE_URL: server.baseUrl } });
  assert.equal(gone.code, 4);
  assert.equal(gone.stdout, '');
  assert.match(gone.stderr, /not logged in to http:\/\/127\.0\.0\.1:\d+\/api/);
  assert.match(gone.stderr, /svcctl login --save/);
  assert.equal((await runCli(['token'], { home, env: { SERVICE_BASE_URL: other.baseUrl } })).stdout, `${second}\n`);

  const again = await runCli(['--json', 'logout'], { home, env: { SERVICE_BASE_URL: server.baseUrl } });
  assert.equal(again.code, 0);
  assert.deepEqual(JSON.parse(again.stdout), { base_url: server.baseUrl, removed: false, deployment_removed: null });
});

async function saveExpired(home: string, baseUrl: string): Promise<string> {
  const expired = makeJwt({ email: EMAIL, exp: nowPlus(-600) });
  await mkdir(join(home, '.config', 'svcctl'), { recursive: true });
  const entry = { access_token: expired, email: EMAIL, expires_at: null, saved_at: '2026-01-01T00:00:00.000Z' };
  await writeFile(credentialsFile(home), JSON.stringify({ version: 1, tokens: { [baseUrl]: entry } }), { mode: 0o600 });
  return expired;
}

test('an expired saved token is exit 4 with a hint; --refresh without a password is exit 4 and sends nothing', async () => {
  const home = await tempDir();
  const expired = await saveExpired(home, server.baseUrl);
  const result = await runCli(['token'], { home, env: { SERVICE_BASE_URL: server.baseUrl } });
  assert.equal(result.code, 4);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /expired 10 minutes ago/);
  assert.match(result.stderr, /hint: run 'svcctl login --save'/);
  const count = server.requests.length;
  const refresh = await runCli(['token', '--refresh'], {
    home,
    stdin: new PassThrough(),
    env: { SERVICE_BASE_URL: server.baseUrl },
  });
  assert.equal(refresh.code, 4);
  assert.match(refresh.stderr, /has no password to log in again/);
  assert.equal(server.requests.length, count);
  assert.deepEqual(secretsIn(refresh, [expired]), []);
});

test('token --refresh logs in again with SERVICE_PASSWORD (email from the saved entry), saves and prints the new token', async () => {
  const home = await tempDir();
  const expired = await saveExpired(home, server.baseUrl);
  const result = await runCli(['token', '--refresh'], {
    home,
    env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_PASSWORD: PASSWORD },
  });
  assert.equal(result.code, 0, result.stderr);
  const fresh = server.issued.at(-1)!;
  assert.equal(result.stdout, `${fresh}\n`);
  assert.deepEqual(server.logins().at(-1), { email: EMAIL, password: PASSWORD });
  assert.deepEqual(secretsIn({ ...result, stdout: '' }, [PASSWORD, fresh, expired]), []);
  const onDisk = JSON.parse(await readFile(credentialsFile(home), 'utf8'));
  assert.equal(onDisk.tokens[server.baseUrl].access_token, fresh);
  assert.equal((await stat(credentialsFile(home))).mode & 0o777, 0o600);
  // A valid token is printed as is: --refresh does not log in again.
  const count = server.requests.length;
  const again = await runCli(['token', '--refresh'], {
    home,
    env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_PASSWORD: PASSWORD },
  });
  assert.equal(again.stdout, `${fresh}\n`);
  assert.equal(server.requests.length, count);
});

test('token --refresh warns once about a credentials file other users can read, and leaves it 0600', async () => {
  const home = await tempDir();
  await saveExpired(home, server.baseUrl);
  await chmod(credentialsFile(home), 0o644);
  const result = await runCli(['token', '--refresh'], {
    home,
    env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_PASSWORD: PASSWORD },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr.match(/can be read by other users/g)?.length, 1, result.stderr);
  assert.match(result.stderr, /can be read by other users \(mode 644\)/);
  assert.equal((await stat(credentialsFile(home))).mode & 0o777, 0o600);
  const quiet = await runCli(['token'], { home, env: { SERVICE_BASE_URL: server.baseUrl } });
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.equal(quiet.stderr, '');
});

test('token --refresh with --password-stdin and no saved token logs in and saves', async () => {
  const home = await tempDir();
  const result = await runCli(['token', '--refresh', '--email', EMAIL, '--password-stdin'], {
    home,
    input: `${PASSWORD}\n`,
    env: { SERVICE_BASE_URL: server.baseUrl },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, `${server.issued.at(-1)}\n`);
  assert.equal(
    JSON.parse(await readFile(credentialsFile(home), 'utf8')).tokens[server.baseUrl].access_token,
    server.issued.at(-1),
  );
});

test('token --refresh --password-stdin with no email anywhere fails at once, before stdin is read', async () => {
  const count = server.requests.length;
  const result = await runCli(['token', '--refresh', '--password-stdin'], {
    stdin: new PassThrough(),
    env: { SERVICE_BASE_URL: server.baseUrl },
    timeoutMs: 10_000,
  });
  assert.equal(result.timedOut, false, 'token --refresh waited for stdin');
  assert.equal(result.code, 4);
  assert.match(result.stderr, /has no email to log in again/);
  assert.equal(server.requests.length, count);
});

test('--help: exit 4 covers a missing or expired saved token; the token examples keep the token out of argv', async () => {
  const help = await runCli(['--help']);
  assert.equal(help.code, 0);
  assert.match(
    help.stdout,
    /^ {2}4 {4}authentication rejected by the service \(401\/403\), or no usable saved token$/m,
  );
  const tokenHelp = await runCli(['token', '--help']);
  assert.match(tokenHelp.stdout, /printf '%s' "\$TOKEN" \| svcctl token inspect --check -/);
  assert.ok(!/token inspect[^\n|]*"\$TOKEN"/.test(tokenHelp.stdout), 'no example passes the token as an argument');
});

test('a credentials file path that is a folder: exit 7 saying so in words (no EISDIR), for token and login --save', async () => {
  const home = await tempDir();
  await mkdir(credentialsFile(home), { recursive: true });
  const count = server.requests.length;
  for (const args of [['token'], ['login', '--save']]) {
    const result = await runCli(args, {
      home,
      env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_EMAIL: EMAIL, SERVICE_PASSWORD: PASSWORD },
    });
    assert.equal(result.code, 7, args.join(' '));
    assert.match(result.stderr, new RegExp(`the credentials file ${credentialsFile(home)} is a folder, not a file`));
    assert.ok(!/EISDIR/.test(result.stderr));
    assert.equal(result.stdout, '');
  }
  assert.equal(server.requests.length, count, 'login --save fails before a token is minted');
});

test('a corrupt credentials file is exit 7, names the file, and is not overwritten by --save', async () => {
  const home = await tempDir();
  await mkdir(join(home, '.config', 'svcctl'), { recursive: true });
  await writeFile(credentialsFile(home), '{"version":1,"tokens":{"x"', { mode: 0o600 });
  const count = server.requests.length;
  const token = await runCli(['token'], { home, env: { SERVICE_BASE_URL: server.baseUrl } });
  assert.equal(token.code, 7);
  assert.ok(token.stderr.includes(credentialsFile(home)));
  const save = await runCli(['login', '--save'], {
    home,
    env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_EMAIL: EMAIL, SERVICE_PASSWORD: PASSWORD },
  });
  assert.equal(save.code, 7);
  assert.equal(save.stdout, '');
  assert.equal(server.requests.length, count, 'the file is checked before logging in');
  assert.equal(await readFile(credentialsFile(home), 'utf8'), '{"version":1,"tokens":{"x"');
});
