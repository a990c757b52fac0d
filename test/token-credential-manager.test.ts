/**
 * The token on Windows goes to Credential Manager, credentials.json keeping only whose login it is and until when
 * (docs/security.md "The token on Windows"). Credential Manager is one in memory here (Context.secretStore): the real
 * one is out of reach under Wine 8. A real login server on 127.0.0.1, a temp HOME; on Linux the platform is injected,
 * under Node for Windows (scripts/test-win32.sh) it is the real one.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { SecretStore } from '../src/core/context.js';
import { runCli } from './helpers/cli.js';
import { makeJwt, nowPlus } from './helpers/jwt.js';
import { EMAIL, PASSWORD, startLoginServer, type LoginServer } from './helpers/login-server.js';
import { startRecordingServer, type RecordingServer } from './helpers/recording-server.js';
import { tempDir } from './helpers/temp-dirs.js';

/** Credential Manager as keyring-rs names its entries: `<account>.<service>`; `refuse` makes every call fail. */
class MemoryCredentials implements SecretStore {
  readonly entries = new Map<string, Uint8Array>();
  refuse: string | undefined;
  private check(): void {
    if (this.refuse !== undefined) throw new Error(this.refuse);
  }
  async read(service: string, account: string) {
    this.check();
    return this.entries.get(`${account}.${service}`);
  }
  async write(service: string, account: string, secret: Uint8Array) {
    this.check();
    this.entries.set(`${account}.${service}`, Uint8Array.from(secret));
  }
  async remove(service: string, account: string) {
    this.check();
    return this.entries.delete(`${account}.${service}`);
  }
  text(target: string): string | undefined {
    const bytes = this.entries.get(target);
    return bytes === undefined ? undefined : Buffer.from(bytes).toString('utf8');
  }
}

let server: LoginServer;
let longTokens: RecordingServer;
const LONG_TOKEN = makeJwt({ email: EMAIL, exp: nowPlus(3600), groups: 'g'.repeat(2600) });
before(async () => {
  server = await startLoginServer();
  longTokens = await startRecordingServer(() => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ access_token: LONG_TOKEN }),
  }));
});
after(async () => {
  await server.close();
  await longTokens.close();
});

const credentials = async (home: string) =>
  JSON.parse(await readFile(join(home, '.config', 'svcctl', 'credentials.json'), 'utf8')) as {
    tokens: Record<string, Record<string, unknown>>;
  };

function svcctl(home: string, store: MemoryCredentials, baseUrl = server.baseUrl) {
  return (args: string[], platform: NodeJS.Platform = 'win32') =>
    runCli(args, {
      home,
      platform,
      secretStore: store,
      env: { SERVICE_BASE_URL: baseUrl, SERVICE_EMAIL: EMAIL, SERVICE_PASSWORD: PASSWORD, USERPROFILE: home },
    });
}

test('login --save on Windows: the token is in Credential Manager only; token prints it, status says where, logout removes both', async () => {
  const home = await tempDir('svcctl-wincred-');
  const store = new MemoryCredentials();
  const run = svcctl(home, store);
  const target = `access_token.svcctl-token:${server.baseUrl}`;

  const login = await run(['login', '--save', '--verbose']);
  assert.equal(login.code, 0, login.stderr);
  const token = server.issued.at(-1)!;
  assert.equal(store.text(target), token, 'Credential Manager holds the token, by the name the docs give');
  const fileText = await readFile(join(home, '.config', 'svcctl', 'credentials.json'), 'utf8');
  assert.ok(!fileText.includes(token.split('.')[2]!), 'no part of the token is in the file');
  const entry = (await credentials(home)).tokens[server.baseUrl]!;
  assert.equal(entry.token_in_keychain, true);
  assert.equal(entry.email, EMAIL);
  assert.equal(entry.access_token, undefined);
  assert.match(login.stderr, new RegExp(`Saved to Windows Credential Manager as ${target.replace(/[.:/]/g, '\\$&')}`));

  const printed = await run(['token']);
  assert.equal(printed.code, 0, printed.stderr);
  assert.equal(printed.stdout, `${token}\n`);

  const status = await run(['--json', 'status']);
  assert.equal(JSON.parse(status.stdout).login.token_in_keychain, true, status.stderr);

  const logout = await run(['logout']);
  assert.equal(logout.code, 0, logout.stderr);
  assert.equal(store.entries.size, 0, 'the token left Credential Manager with the login');
});

const ON_WINDOWS = process.platform === 'win32' && 'Linux paths cannot be made under Node for Windows';

test('on Linux the same login keeps the token in the 0600 file, and Credential Manager is never asked', {
  skip: ON_WINDOWS,
}, async () => {
  const home = await tempDir('svcctl-wincred-');
  const store = new MemoryCredentials();
  store.refuse = 'must not be called';
  const login = await svcctl(home, store)(['login', '--save'], 'linux');
  assert.equal(login.code, 0, login.stderr);
  assert.equal((await credentials(home)).tokens[server.baseUrl]!.access_token, server.issued.at(-1));
});

test('Credential Manager refusing, or a token over its 2,560 bytes: the token goes to the file, and stderr says why', async () => {
  const refusing = new MemoryCredentials();
  refusing.refuse = 'A specified logon session does not exist. It may already have been terminated. (os error 1312)';
  const home = await tempDir('svcctl-wincred-');
  const refused = await svcctl(home, refusing)(['login', '--save']);
  assert.equal(refused.code, 0, refused.stderr);
  assert.equal((await credentials(home)).tokens[server.baseUrl]!.access_token, server.issued.at(-1));
  assert.match(
    refused.stderr,
    /the token is in .*credentials\.json, not in Windows Credential Manager: .*logon session/,
  );

  const longHome = await tempDir('svcctl-wincred-');
  const store = new MemoryCredentials();
  const long = await svcctl(longHome, store, longTokens.baseUrl)(['login', '--save']);
  assert.equal(long.code, 0, long.stderr);
  assert.ok(Buffer.byteLength(LONG_TOKEN) > 2560);
  assert.equal(store.entries.size, 0);
  assert.equal((await credentials(longHome)).tokens[longTokens.baseUrl]!.access_token, LONG_TOKEN);
  assert.match(
    long.stderr,
    new RegExp(
      `the token is ${Buffer.byteLength(LONG_TOKEN)} bytes, and Windows Credential Manager holds at most 2560`,
    ),
  );
});

test('a token Credential Manager no longer has: token is exit 7 naming it, and login --save mends it', async () => {
  const home = await tempDir('svcctl-wincred-');
  const store = new MemoryCredentials();
  const run = svcctl(home, store);
  assert.equal((await run(['login', '--save'])).code, 0);
  store.entries.clear();

  const gone = await run(['token']);
  assert.equal(gone.code, 7, gone.stderr);
  assert.match(
    gone.stderr,
    /the token saved for .* was kept in Windows Credential Manager \(access_token\.svcctl-token:.*\), which no longer has it/,
  );
  assert.match(gone.stderr, /hint: log in again with 'svcctl login --save'/);
  assert.equal(gone.stdout, '');

  const again = await run(['login', '--save']);
  assert.equal(again.code, 0, again.stderr);
  assert.equal((await run(['token'])).stdout, `${server.issued.at(-1)}\n`);
});

test('a login saved in Credential Manager, then one it refuses: the old token is taken out of it, not left behind', async () => {
  const home = await tempDir('svcctl-wincred-');
  const store = new MemoryCredentials();
  const run = svcctl(home, store);
  assert.equal((await run(['login', '--save'])).code, 0);
  assert.equal(store.entries.size, 1);
  const refusingOnce = Object.assign(Object.create(store) as MemoryCredentials, {
    write: async () => {
      throw new Error('Credential Manager is busy');
    },
  });
  const second = await svcctl(home, refusingOnce)(['login', '--save']);
  assert.equal(second.code, 0, second.stderr);
  assert.equal(store.entries.size, 0, 'the stale token is gone from Credential Manager');
  assert.equal((await credentials(home)).tokens[server.baseUrl]!.access_token, server.issued.at(-1));
});

const REAL_KEYCHAIN =
  process.platform !== 'win32'
    ? 'Credential Manager is on Windows only (scripts/test-win32.sh runs this under Node for Windows)'
    : await import('@napi-rs/keyring').then(
        () => false,
        (error: Error) => `the keychain library's Windows build does not load here: ${error.message.split('\n')[0]}`,
      );

test('the real Credential Manager: login --save, token, logout, read back by the keychain library itself', {
  skip: REAL_KEYCHAIN,
}, async () => {
  const { AsyncEntry } = await import('@napi-rs/keyring');
  const home = await tempDir('svcctl-wincred-');
  const env = { SERVICE_BASE_URL: server.baseUrl, SERVICE_EMAIL: EMAIL, SERVICE_PASSWORD: PASSWORD, USERPROFILE: home };
  const login = await runCli(['login', '--save'], { home, env });
  assert.equal(login.code, 0, login.stderr);
  const token = server.issued.at(-1)!;
  const entry = new AsyncEntry(`svcctl-token:${server.baseUrl}`, 'access_token');
  assert.equal(Buffer.from((await entry.getSecret()) ?? []).toString('utf8'), token);
  assert.equal((await credentials(home)).tokens[server.baseUrl]!.access_token, undefined);
  assert.equal((await runCli(['token'], { home, env })).stdout, `${token}\n`);
  assert.equal((await runCli(['logout'], { home, env })).code, 0);
  assert.equal(await entry.getSecret(), null, 'logout took it out of Credential Manager');
});

test('a token Credential Manager lost: token --refresh logs in again with the password, status names the loss, logout says where', async () => {
  const home = await tempDir('svcctl-wincred-');
  const store = new MemoryCredentials();
  const run = svcctl(home, store);
  assert.equal((await run(['login', '--save'])).code, 0);
  store.entries.clear();

  const status = await run(['--json', 'status']);
  const report = JSON.parse(status.stdout);
  assert.equal(report.login.email, EMAIL, 'whose login it is is still known');
  assert.match(report.problems[0].message, /which no longer has it/);

  const refreshed = await run(['token', '--refresh']);
  assert.equal(refreshed.code, 0, refreshed.stderr);
  assert.equal(refreshed.stdout, `${server.issued.at(-1)}\n`);
  assert.equal(store.text(`access_token.svcctl-token:${server.baseUrl}`), server.issued.at(-1));

  const logout = await run(['logout']);
  assert.match(logout.stderr, /the saved token was removed from Windows Credential Manager and .*credentials\.json/);
});

test('a credentials file saved on Windows, read elsewhere: exit 7 saying the token stayed on that computer', {
  skip: ON_WINDOWS,
}, async () => {
  const home = await tempDir('svcctl-wincred-');
  const store = new MemoryCredentials();
  assert.equal((await svcctl(home, store)(['login', '--save'])).code, 0);
  store.refuse = 'must not be asked off Windows';
  const elsewhere = await svcctl(home, store)(['token'], 'linux');
  assert.equal(elsewhere.code, 7, elsewhere.stderr);
  assert.match(elsewhere.stderr, /is in Windows Credential Manager of the Windows computer that saved it/);
});
