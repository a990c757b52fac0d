/**
 * `svcctl token --refresh` as a credential helper: --header and
 * --json-headers, the fast path (a fresh saved token: no request, no HTTP
 * code loaded), one login for concurrent refreshes, and the password kept in
 * the OS keychain by `login --save --remember-password` (a Secret Service in
 * a private D-Bus session where gnome-keyring is installed; the refusal where
 * there is none).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BIN, cleanEnv, runCli, spawnCli } from './helpers/cli.js';
import { makeJwt, nowPlus } from './helpers/jwt.js';
import { EMAIL, PASSWORD, startLoginServer, type LoginServer } from './helpers/login-server.js';
import { startRecordingServer } from './helpers/recording-server.js';
import { tempDir } from './helpers/temp-dirs.js';

const RECORD_LOADS = fileURLToPath(new URL('./fixtures/record-loads.mjs', import.meta.url));
const credentialsFile = (home: string): string => join(home, '.config', 'svcctl', 'credentials.json');

let server: LoginServer;
before(async () => {
  server = await startLoginServer();
});
after(() => server?.close());

async function saveToken(
  home: string,
  baseUrl: string,
  token: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const entry = { access_token: token, email: EMAIL, expires_at: null, saved_at: new Date().toISOString(), ...extra };
  await mkdir(join(home, '.config', 'svcctl'), { recursive: true, mode: 0o700 });
  await writeFile(credentialsFile(home), JSON.stringify({ version: 1, tokens: { [baseUrl]: entry } }), { mode: 0o600 });
}

async function filesUnder(dir: string, tries = 40): Promise<string[]> {
  // gnome-keyring-daemon may still be replacing its own temp files under HOME as it shuts down: read again then.
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(
    async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT' || tries <= 1) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
      return null;
    },
  );
  if (entries === null) return filesUnder(dir, tries - 1);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name));
}

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

test('a fresh saved token: no request, and neither node:http nor undici nor the login code is loaded', async () => {
  const home = await tempDir();
  const loads = join(home, 'loads.txt');
  const token = makeJwt({ email: EMAIL, iat: nowPlus(0), exp: nowPlus(3600) });
  await saveToken(home, server.baseUrl, token);
  const before = server.requests.length;
  const env = {
    SERVICE_BASE_URL: server.baseUrl,
    SERVICE_PASSWORD: PASSWORD,
    NODE_OPTIONS: `--import=${RECORD_LOADS}`,
    SVCCTL_LOAD_LOG: loads,
    // The compile cache runs dist/ through vm.Script, which require.cache does not see: the same files load.
    NODE_DISABLE_COMPILE_CACHE: '1',
  };
  // What a start-up loads is seen only in a fresh process.
  const fast = await spawnCli(['token', '--refresh', '--json-headers'], { home, env });
  assert.equal(fast.code, 0, fast.stderr);
  assert.deepEqual(JSON.parse(fast.stdout), { Authorization: `Bearer ${token}` });
  assert.equal(server.requests.length, before);
  const loaded = (await readFile(loads, 'utf8')).split('\n');
  assert.ok(
    loaded.some((url) => /\/chunks\/token-/.test(url)),
    'the recorder saw nothing',
  );
  assert.deepEqual(
    loaded.filter((url) => /^node:https?$|undici|\/chunks\/login-/.test(url)),
    [],
  );

  // The same recorder does see them when a login is needed (the check above is not vacuous).
  await saveToken(home, server.baseUrl, makeJwt({ email: EMAIL, iat: nowPlus(-7200), exp: nowPlus(-3600) }));
  await writeFile(loads, '');
  const slow = await spawnCli(['token', '--refresh'], { home, env });
  assert.equal(slow.code, 0, slow.stderr);
  assert.equal(server.requests.length, before + 1);
  assert.ok((await readFile(loads, 'utf8')).split('\n').some((url) => url === 'node:http'));
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
  await assert.rejects(stat(`${credentialsFile(home)}.refresh.svcctl.lock`), 'the lock file was left behind');
});

test('a helper that is logging in shows no secret in its argv (/proc/<pid>/cmdline)', {
  skip: process.platform !== 'linux' && 'reads /proc, which only Linux has',
}, async () => {
  // A login endpoint that answers after a moment, so the helper is still running when its argv is read.
  const slow = await startLoginServer();
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const gate = await startRecordingServer(async (request) => {
    await held;
    const answer = await fetch(`${slow.origin}${request.url}`, {
      method: 'POST',
      body: request.body,
      headers: { 'content-type': 'application/json' },
    });
    return { status: answer.status, headers: { 'content-type': 'application/json' }, body: await answer.text() };
  });
  try {
    const home = await tempDir();
    await saveToken(home, gate.baseUrl, makeJwt({ email: EMAIL, iat: nowPlus(-7200), exp: nowPlus(-3600) }));
    const child = spawn(process.execPath, [BIN, 'token', '--refresh', '--json-headers'], {
      cwd: home,
      env: cleanEnv(home, { SERVICE_BASE_URL: gate.baseUrl, SERVICE_PASSWORD: PASSWORD }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    for (let waited = 0; gate.requests.length === 0 && waited < 10_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(gate.requests.length, 1, 'the helper never logged in');
    const cmdline = (await readFile(`/proc/${child.pid}/cmdline`, 'utf8')).split('\0').join(' ').trim();
    release();
    assert.equal(await exited, 0);
    assert.match(cmdline, /token --refresh --json-headers$/);
    const token = JSON.parse(stdout).Authorization.replace(/^Bearer /, '');
    assert.equal(token, slow.issued[0]);
    for (const secret of [PASSWORD, token]) assert.ok(!cmdline.includes(secret), 'a secret is in the helper argv');
  } finally {
    release();
    await Promise.all([gate.close(), slow.close()]);
  }
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
  await assert.rejects(stat(credentialsFile(home)));
  for (const file of await filesUnder(home))
    assert.ok(!(await readFile(file, 'utf8')).includes(PASSWORD), `the password is in ${file}`);
});

const KEYCHAIN_PROBE = `const { AsyncEntry } = require(${JSON.stringify(fileURLToPath(new URL('../node_modules/@napi-rs/keyring/index.js', import.meta.url)))}); new AsyncEntry(process.argv[1], process.argv[2], { linux: { store: 'secret-service' } }).getPassword().then((v) => console.log('keychain=' + v));`;

const keyringTools = ['dbus-run-session', 'gnome-keyring-daemon'].filter(
  (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0,
);
const keyringSkip =
  keyringTools.length > 0
    ? `no Secret Service to test with (${keyringTools.join(', ')} not installed; apt-get install gnome-keyring dbus)`
    : false;

test('the keychain path: login --remember-password, a refresh with no password given, logout forgets it', {
  skip: keyringSkip,
}, async () => {
  const short = await startLoginServer({ ttlSeconds: 2 });
  try {
    const home = await tempDir();
    const svcctl = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)}`;
    // One private D-Bus session with an unlocked gnome-keyring (its keyring files go under the temp HOME).
    const script = [
      'printf unlock-pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1',
      `SERVICE_PASSWORD=${JSON.stringify(PASSWORD)} ${svcctl} login --save --remember-password --email ${EMAIL} >/dev/null; echo "login=$?"`,
      'sleep 2.2',
      `${svcctl} token --refresh --header & pid=$!; sleep 0.05; tr '\\0' ' ' < /proc/$pid/cmdline > cmdline.txt 2>/dev/null; wait $pid; echo "refresh=$?"`,
      `${svcctl} logout; echo "logout=$?"`,
      // What the keychain holds now, read with the library itself (null: nothing).
      `${JSON.stringify(process.execPath)} -e ${JSON.stringify(KEYCHAIN_PROBE)} ${JSON.stringify(`svcctl:${short.baseUrl}`)} ${EMAIL}`,
    ].join('\n');
    const child = spawn('dbus-run-session', ['--', 'bash', '-c', script], {
      cwd: home,
      env: cleanEnv(home, { SERVICE_BASE_URL: short.baseUrl }),
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    await new Promise((resolve) => child.on('close', resolve));
    assert.match(out, /^login=0$/m, err);
    assert.match(out, /^refresh=0$/m, err);
    assert.match(out, /^logout=0$/m, err);
    assert.match(out, /^keychain=null$/m, err);
    // Two logins: the first with SERVICE_PASSWORD, the second with the password from the keychain.
    assert.deepEqual(
      short.logins().map((body) => body.password),
      [PASSWORD, PASSWORD],
    );
    assert.ok(out.includes(`Authorization: Bearer ${short.issued[1]}`));
    assert.match(err, /The password of .* was removed from the OS keychain/);
    const cmdline = await readFile(join(home, 'cmdline.txt'), 'utf8');
    assert.match(cmdline, /token --refresh --header/);
    assert.ok(!cmdline.includes(PASSWORD) && !cmdline.includes(short.issued[1]!));
    for (const file of await filesUnder(home))
      assert.ok(!(await readFile(file)).includes(PASSWORD), `the password is in plain text in ${file}`);
  } finally {
    await short.close();
  }
});
