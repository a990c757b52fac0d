/**
 * svcctl login against a real HTTP server on 127.0.0.1: every source of the
 * email and password, the legacy SVC_* names, and which source wins.
 */
import { PassThrough } from 'node:stream';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runCli, secretsIn } from './helpers/cli.js';
import { EMAIL, PASSWORD, startLoginServer, type LoginServer } from './helpers/login-server.js';
import { tempDir } from './helpers/temp-dirs.js';

let server: LoginServer;
before(async () => {
  server = await startLoginServer();
});
after(() => server.close());

/** Runs login and checks what every successful login must show: stdout is exactly the token and a newline. */
async function loginOk(args: string[], options: Parameters<typeof runCli>[1] = {}) {
  const before = server.issued.length;
  const result = await runCli(['login', ...args], {
    ...options,
    env: { SERVICE_BASE_URL: server.baseUrl, ...options.env },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(server.issued.length, before + 1);
  const token = server.issued.at(-1)!;
  assert.equal(result.stdout, `${token}\n`);
  assert.deepEqual(secretsIn({ ...result, stdout: '' }, [PASSWORD, token]), [], 'no secret on stderr');
  assert.ok(!result.stdout.includes(PASSWORD));
  return result;
}

const lastLogin = () => server.logins().at(-1)!;

test('--email and --password-stdin: the request is a JSON POST to /api/v1/user/login with exactly email and password', async () => {
  await loginOk(['--email', EMAIL, '--password-stdin'], { input: `${PASSWORD}\n` });
  const request = server.requests.at(-1)!;
  assert.equal(request.method, 'POST');
  assert.equal(request.url, '/api/v1/user/login');
  assert.match(String(request.headers['content-type']), /^application\/json/);
  assert.deepEqual(JSON.parse(request.body.toString('utf8')), { email: EMAIL, password: PASSWORD });
});

test('--password-stdin removes exactly one trailing newline (\\r\\n too); a second one is refused', async () => {
  await loginOk(['--email', EMAIL, '--password-stdin'], { input: `${PASSWORD}\r\n` });
  assert.equal(lastLogin().password, PASSWORD);
  const logins = server.logins().length;
  const result = await runCli(['login', '--email', EMAIL, '--password-stdin'], {
    input: `${PASSWORD}\n\n`,
    env: { SERVICE_BASE_URL: server.baseUrl },
  });
  assert.equal(result.code, 2, 'a second newline would be a line break inside the password: a usage error');
  assert.match(result.stderr, /the password read from stdin contains a line break/);
  assert.equal(server.logins().length, logins, 'nothing is sent');
});

test('--password-file', async () => {
  const dir = await tempDir();
  const file = join(dir, 'pw.txt');
  await writeFile(file, `${PASSWORD}\n`, { mode: 0o600 });
  await loginOk(['--email', EMAIL, '--password-file', file]);
  assert.equal(lastLogin().password, PASSWORD);
});

test('--password-file and SERVICE_PASSWORD: surrounding spaces are warned about, a line break inside is exit 2 and nothing is sent', async () => {
  const dir = await tempDir();
  const spaced = join(dir, 'spaced.txt');
  await writeFile(spaced, ` ${PASSWORD}\n`, { mode: 0o600 });
  // The server knows only PASSWORD, so these logins are rejected (exit 4): what matters is what was sent and said.
  const fromFile = await runCli(['login', '--email', EMAIL, '--password-file', spaced], {
    env: { SERVICE_BASE_URL: server.baseUrl },
  });
  assert.equal(fromFile.code, 4, fromFile.stderr);
  assert.equal(lastLogin().password, ` ${PASSWORD}`);
  assert.ok(fromFile.stderr.includes(`the password in ${spaced} starts or ends with whitespace`), fromFile.stderr);
  const fromEnv = await runCli(['login'], {
    env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_EMAIL: EMAIL, SERVICE_PASSWORD: `${PASSWORD} ` },
  });
  assert.equal(fromEnv.code, 4, fromEnv.stderr);
  assert.equal(lastLogin().password, `${PASSWORD} `);
  assert.match(fromEnv.stderr, /SERVICE_PASSWORD starts or ends with whitespace/);

  const logins = server.logins().length;
  const broken = join(dir, 'broken.txt');
  await writeFile(broken, `${PASSWORD}\nsecond line\n`, { mode: 0o600 });
  const file = await runCli(['login', '--email', EMAIL, '--password-file', broken], {
    env: { SERVICE_BASE_URL: server.baseUrl },
  });
  assert.equal(file.code, 2);
  assert.match(file.stderr, /the password in .*broken\.txt contains a line break/);
  const env = await runCli(['login'], {
    env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_EMAIL: EMAIL, SERVICE_PASSWORD: `${PASSWORD}\rx` },
  });
  assert.equal(env.code, 2);
  assert.match(env.stderr, /SERVICE_PASSWORD \(the password\) contains a line break/);
  assert.deepEqual(secretsIn(env, [PASSWORD]), []);
  assert.equal(server.logins().length, logins, 'nothing is sent');
});

test('SERVICE_EMAIL and SERVICE_PASSWORD', async () => {
  await loginOk([], { env: { SERVICE_EMAIL: EMAIL, SERVICE_PASSWORD: PASSWORD } });
  assert.deepEqual(lastLogin(), { email: EMAIL, password: PASSWORD });
});

test('legacy SVC_EMAIL, SVC_PASSWORD and SVC_BASE_URL are accepted', async () => {
  const result = await runCli(['login'], {
    env: { SVC_BASE_URL: server.baseUrl, SVC_EMAIL: EMAIL, SVC_PASSWORD: PASSWORD },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, `${server.issued.at(-1)}\n`);
  assert.deepEqual(lastLogin(), { email: EMAIL, password: PASSWORD });
});

test('current names win over legacy ones, and --verbose names the variable, never its value', async () => {
  const result = await loginOk(['--verbose'], {
    env: {
      SERVICE_EMAIL: EMAIL,
      SVC_EMAIL: 'legacy@acme.example',
      SERVICE_PASSWORD: PASSWORD,
      SVC_PASSWORD: 'legacy-password',
    },
  });
  assert.deepEqual(lastLogin(), { email: EMAIL, password: PASSWORD });
  assert.match(result.stderr, /email from SERVICE_EMAIL/);
  assert.match(result.stderr, /password from SERVICE_PASSWORD/);
  assert.ok(!result.stderr.includes('legacy-password'));
});

test('flags win over variables: --email over SERVICE_EMAIL, --password-stdin and --password-file over SERVICE_PASSWORD', async () => {
  const dir = await tempDir();
  const file = join(dir, 'pw');
  await writeFile(file, PASSWORD, { mode: 0o600 });
  const env = { SERVICE_EMAIL: 'env@acme.example', SERVICE_PASSWORD: 'env-password' };
  await loginOk(['--email', EMAIL, '--password-stdin'], { input: PASSWORD, env });
  assert.deepEqual(lastLogin(), { email: EMAIL, password: PASSWORD });
  await loginOk(['--email', EMAIL, '--password-file', file], { env });
  assert.deepEqual(lastLogin(), { email: EMAIL, password: PASSWORD });
});

test('--password-stdin with --password-file is a usage error; no request is sent', async () => {
  const count = server.requests.length;
  const result = await runCli(['login', '--email', EMAIL, '--password-stdin', '--password-file', '/nonexistent'], {
    input: PASSWORD,
    env: { SERVICE_BASE_URL: server.baseUrl },
  });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /cannot be combined/);
  assert.equal(server.requests.length, count);
});

test('there is no password flag: exit 2 with a hint to the real sources, the value never shown, nothing sent', async () => {
  const count = server.requests.length;
  const forms = [
    ['login', '--email', EMAIL, '--password', PASSWORD],
    ['login', '--email', EMAIL, `--password=${PASSWORD}`],
    ['login', '--password'],
    ['token', '--refresh', '--password', PASSWORD],
    ['mcp', 'install', '--client', 'codex', '--dry-run', '--password', PASSWORD],
  ];
  for (const args of forms) {
    const result = await runCli(args, { env: { SERVICE_BASE_URL: server.baseUrl } });
    assert.equal(result.code, 2, args.join(' '));
    assert.match(result.stderr, /unknown option '--password'/);
    assert.match(
      result.stderr,
      /hint: there is no password flag \(it would show in the process list\): use --password-stdin, --password-file or SERVICE_PASSWORD/,
    );
    assert.equal(result.stdout, '');
    assert.deepEqual(secretsIn(result, [PASSWORD]), [], 'the value is never repeated');
  }
  assert.equal(server.requests.length, count);
  const help = await runCli(['login', '--help']);
  assert.ok(!/--password\s/.test(help.stdout), 'the hidden option is not in the help');
});

test('without a TTY, missing values are exit 2 at once, naming the flags and variables; stdin left open is not waited on', async () => {
  const count = server.requests.length;
  const both = await runCli(['login'], {
    stdin: new PassThrough(),
    env: { SERVICE_BASE_URL: server.baseUrl },
    timeoutMs: 10_000,
  });
  assert.equal(both.timedOut, false);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /no email and no password/);
  assert.match(both.stderr, /--email or SERVICE_EMAIL/);
  assert.match(both.stderr, /--password-stdin, --password-file or SERVICE_PASSWORD/);
  assert.equal(both.stdout, '');
  const noPassword = await runCli(['login', '--email', EMAIL], {
    stdin: new PassThrough(),
    env: { SERVICE_BASE_URL: server.baseUrl },
  });
  assert.equal(noPassword.code, 2);
  assert.match(noPassword.stderr, /no password given/);
  const noEmail = await runCli(['login', '--password-stdin'], {
    input: PASSWORD,
    env: { SERVICE_BASE_URL: server.baseUrl },
  });
  assert.equal(noEmail.code, 2);
  assert.match(noEmail.stderr, /no email given/);
  assert.equal(server.requests.length, count, 'nothing was sent');
});

test('--password-stdin without an email fails at once, before stdin is read (stdin left open, never written)', async () => {
  const count = server.requests.length;
  const result = await runCli(['login', '--password-stdin'], {
    stdin: new PassThrough(),
    env: { SERVICE_BASE_URL: server.baseUrl },
    timeoutMs: 10_000,
  });
  assert.equal(result.timedOut, false, 'login waited for stdin');
  assert.equal(result.code, 2);
  assert.match(result.stderr, /no email given/);
  assert.ok(!/no password/.test(result.stderr), 'the password is given (stdin), only the email is missing');
  assert.equal(result.stdout, '');
  assert.equal(server.requests.length, count, 'nothing was sent');
});

test('--json: the contract fields, read from the JWT claims', async () => {
  const result = await runCli(['--json', 'login'], {
    env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_EMAIL: EMAIL, SERVICE_PASSWORD: PASSWORD },
  });
  assert.equal(result.code, 0, result.stderr);
  const token = server.issued.at(-1)!;
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
  const parsed = JSON.parse(result.stdout);
  assert.deepEqual(Object.keys(parsed), ['access_token', 'token_type', 'email', 'issuer', 'expires_at']);
  assert.deepEqual(parsed, {
    access_token: token,
    token_type: 'Bearer',
    email: EMAIL,
    issuer: server.origin,
    expires_at: new Date(claims.exp * 1000).toISOString(),
  });
  assert.equal(result.stdout.split('\n').length, 2, 'one JSON document and a newline');
});

test('without a TTY, stderr stays silent on success', async () => {
  const result = await loginOk([], { env: { SERVICE_EMAIL: EMAIL, SERVICE_PASSWORD: PASSWORD } });
  assert.equal(result.stderr, '');
});
