/**
 * A remembered deployment: after `login --save`, commands need no base URL;
 * with several saved, they are named (`--deployment`, SVCCTL_DEPLOYMENT, the
 * default of config.toml), flags beating variables beating the default; and
 * `svcctl status` says where svcctl points, who is logged in and until when,
 * never a secret. Two real login servers on 127.0.0.1, the built CLI, a temp HOME.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, type RunResult } from './helpers/cli.js';
import { EMAIL, PASSWORD, startLoginServer, type LoginServer } from './helpers/login-server.js';
import { tempDir } from './helpers/temp-dirs.js';

let a: LoginServer;
let b: LoginServer;
before(async () => {
  a = await startLoginServer();
  b = await startLoginServer();
});
after(async () => {
  await a.close();
  await b.close();
});

const nameOf = (server: LoginServer): string => new URL(server.baseUrl).host;

async function homeWithLogins(
  ...servers: LoginServer[]
): Promise<{ home: string; run: (args: string[], env?: Record<string, string>) => Promise<RunResult> }> {
  const home = await tempDir('svcctl-deploy-');
  const run = (args: string[], env: Record<string, string> = {}) => runCli(args, { home, env });
  for (const server of servers) {
    const login = await runCli(
      ['login', '--email', EMAIL, '--password-stdin', '--save', '--remember-deployment', '--base-url', server.baseUrl],
      { home, input: `${PASSWORD}\n` },
    );
    assert.equal(login.code, 0, login.stderr);
  }
  return { home, run };
}

describe('a remembered deployment', () => {
  it('one saved login: token, logout and status need no base URL; --verbose says where it came from', async () => {
    const { run } = await homeWithLogins(a);
    const token = await run(['-v', 'token']);
    assert.equal(token.code, 0, token.stderr);
    assert.equal(token.stdout.trim(), a.issued.at(-1));
    assert.match(
      token.stderr,
      /base URL from deployment '127\.0\.0\.1:\d+' \(the default deployment of .*config\.toml\)/,
    );
    const logout = await run(['logout']);
    assert.equal(logout.code, 0, logout.stderr);
    assert.equal((await run(['token'])).code, 4, 'the token is gone, the deployment still known');
  });

  it('a login saved before deployments were remembered (credentials only) is used when it is the only one', async () => {
    const { home, run } = await homeWithLogins(a);
    await writeFile(join(home, '.config', 'svcctl', 'config.toml'), '');
    const token = await run(['token']);
    assert.equal(token.code, 0, token.stderr);
    assert.equal(token.stdout.trim(), a.issued.at(-1));
  });

  it('flags beat variables beat the default', async () => {
    const { run } = await homeWithLogins(a, b);
    const tokenOf = async (args: string[], env: Record<string, string> = {}): Promise<string> => {
      const result = await run([...args, 'token'], env);
      assert.equal(result.code, 0, result.stderr);
      return result.stdout.trim();
    };
    const [tokenA, tokenB] = [a.issued.at(-1), b.issued.at(-1)];
    assert.equal(await tokenOf([]), tokenA, 'the first saved is the default');
    assert.equal(await tokenOf([], { SVCCTL_DEPLOYMENT: nameOf(b) }), tokenB);
    assert.equal(
      await tokenOf([], { SVCCTL_DEPLOYMENT: nameOf(b), SERVICE_BASE_URL: a.baseUrl }),
      tokenA,
      'SERVICE_BASE_URL beats SVCCTL_DEPLOYMENT',
    );
    assert.equal(
      await tokenOf(['--deployment', nameOf(b)], { SERVICE_BASE_URL: a.baseUrl }),
      tokenB,
      '--deployment beats SERVICE_BASE_URL',
    );
    assert.equal(
      await tokenOf(['--base-url', a.baseUrl, '--deployment', nameOf(b)]),
      tokenA,
      '--base-url beats --deployment',
    );
    assert.equal((await run(['deployment', 'use', nameOf(b)])).code, 0);
    assert.equal(await tokenOf([]), tokenB, 'the new default');
    const unknown = await run(['--deployment', 'nope', 'token']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /--deployment: no deployment named 'nope'/);
    assert.match(unknown.stderr, /hint: saved deployments: /);
  });

  it('several saved and no default: a command that needs a base URL asks to name one (exit 2)', async () => {
    const { home, run } = await homeWithLogins(a, b);
    const path = join(home, '.config', 'svcctl', 'config.toml');
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace(/^default = .*$/m, ''));
    const result = await run(['token']);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /several deployments are saved \(.*\): name one/);
    assert.match(
      result.stderr,
      /hint: pass --deployment NAME \(or set SVCCTL_DEPLOYMENT\), or make one the default: svcctl deployment use NAME/,
    );
    const listed = await run(['--json', 'deployment', 'list']);
    assert.deepEqual(
      JSON.parse(listed.stdout).map((row: { name: string; default: boolean; logged_in: boolean }) => [
        row.name,
        row.default,
        row.logged_in,
      ]),
      [
        [nameOf(a), false, true],
        [nameOf(b), false, true],
      ],
    );
  });

  it('deployment add and remove; the config holds no secret', async () => {
    const { home, run } = await homeWithLogins(a);
    assert.equal((await run(['deployment', 'add', 'staging', 'https://staging.acme.example/api'])).code, 0);
    assert.equal(
      (await run(['deployment', 'add', 'staging', 'https://other.acme.example/api'])).code,
      2,
      'a name is not reused for another URL',
    );
    assert.equal((await run(['deployment', 'remove', 'staging'])).code, 0);
    assert.equal((await run(['deployment', 'remove', 'staging'])).code, 2);
    const config = await readFile(join(home, '.config', 'svcctl', 'config.toml'), 'utf8');
    assert.ok(!config.includes(a.issued.at(-1)!) && !config.includes(PASSWORD), 'no token or password in config.toml');
  });
});

describe('svcctl status', () => {
  it('after login: the deployment and its source, the user and the expiry, no secret (text and --json)', async () => {
    const { home, run } = await homeWithLogins(a);
    await mkdir(join(home, '.cursor'), { recursive: true });
    const env = { SERVICE_INGEST_TOKEN: 'ingest-secret-value-1', SERVICE_PASSWORD: PASSWORD };
    const text = await run(['status'], env);
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      new RegExp(
        `deployment: ${nameOf(a).replace(/\./g, '\\.')} ${a.baseUrl.replace(/\./g, '\\.')} \\(from the default deployment`,
      ),
    );
    assert.match(text.stdout, new RegExp(`login: +${EMAIL}, expires in \\d+ minutes \\(\\d{4}-\\d\\d-\\d\\dT`));
    assert.match(text.stdout, /settings: +SERVICE_PASSWORD, SERVICE_INGEST_TOKEN/);
    const json = await run(['--json', 'status'], env);
    const status = JSON.parse(json.stdout);
    assert.equal(status.deployment.base_url, a.baseUrl);
    assert.equal(status.login.email, EMAIL);
    assert.equal(status.login.expired, false);
    assert.ok(Date.parse(status.login.expires_at) > Date.now());
    for (const result of [text, json]) {
      for (const secret of [a.issued.at(-1)!, PASSWORD, 'ingest-secret-value-1']) {
        assert.ok(!result.stdout.includes(secret) && !result.stderr.includes(secret), 'no secret in the output');
      }
    }
  });

  it('with nothing saved: says so, exit 0', async () => {
    const result = await runCli(['status']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /deployment: none/);
    assert.match(result.stdout, /login: +not logged in/);
  });
});
