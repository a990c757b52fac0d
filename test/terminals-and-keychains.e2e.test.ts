/**
 * What needs a terminal (util-linux script(1)) or an OS keychain (a Secret Service in a private D-Bus session where
 * gnome-keyring is installed): a batch's progress line; the password prompt and the keychain as sources of a secret
 * that every output shows as *** (the cells of test/helpers/redaction-cells.ts that only a process reaches; the rest
 * are in redaction-sources.test.ts); and `login --save --remember-password`, a refresh with the password of the
 * keychain and `logout` forgetting it.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { BIN, cleanEnv } from './helpers/cli.js';
import { echoBaseUrl, startEchoMcpServer, startEchoService, type EchoMcpServer } from './helpers/echo-servers.js';
import { eventLines } from './helpers/event-lines.js';
import { startLoginServer } from './helpers/login-server.js';
import { INITIALIZE } from './helpers/proxy-exchange.js';
import { accepted, startRecordingServer, type RecordingServer } from './helpers/recording-server.js';
import {
  assertHidden,
  assertProxyHidden,
  type CellName,
  EMAIL,
  PASSWORD,
  PROCESS_CELLS,
  SAVED,
  saveEntry,
} from './helpers/redaction-cells.js';
import { EVERY_ENCODING_HIDDEN } from './helpers/secret-encodings.js';
import { hasScript, shellQuote, underTerminal } from './helpers/terminal.js';
import { filesUnder } from './helpers/saved-token.js';
import { tempDir } from './helpers/temp-dirs.js';

describe('at a terminal', { concurrency: true }, () => {
  it('event send --ndjson shows a progress line on a terminal (run under script(1))', {
    skip: !hasScript && 'util-linux script is not installed',
  }, async () => {
    // Slow answers keep the batch running for over a second, long enough for progress lines.
    const server = await startRecordingServer(async (request, index) => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      return accepted(request, index);
    });
    try {
      const dir = await tempDir();
      const input = join(dir, 'tty.ndjson');
      await writeFile(input, `${eventLines(1000).join('\n')}\n`);
      const command = `${process.execPath} ${BIN} event send --ndjson ${input} --concurrency 2 > /dev/null`;
      const { stdout } = await promisify(execFile)('script', ['-qfec', command, '/dev/null'], {
        env: cleanEnv(dir, { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 'tok-batch-77' }),
        timeout: 30_000,
      });
      assert.match(stdout, /\r\x1b\[2Ksent \d+ · failed 0 · \d+\/s/);
      assert.match(stdout, /sent 1000, failed 0 in/);
      assert.equal(server.requests.length, 1000);
    } finally {
      await server.close();
    }
  });
});

let service: RecordingServer;
let mcp: EchoMcpServer;
before(async () => {
  [service, mcp] = await Promise.all([startEchoService(), startEchoMcpServer()]);
});
after(async () => {
  await Promise.all([service?.close(), mcp?.close()]);
});

const cellName = (cell: CellName): string => `${cell.source} × ${cell.outputs.join(', ')}`;

const keyringMissing = ['dbus-run-session', 'gnome-keyring-daemon'].filter(
  (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0,
);
const KEYRING_MODULE = fileURLToPath(new URL('../node_modules/@napi-rs/keyring/index.js', import.meta.url));
const keychainSkip =
  keyringMissing.length > 0 &&
  `no Secret Service to test with (${keyringMissing.join(', ')} not installed; apt-get install gnome-keyring dbus)`;

/** A saved entry for `baseUrl` that needs a login (its token expired), with the password in the keychain. */
function keychainScript(home: string, baseUrl: string, commands: string[]): Promise<void> {
  const store = `const { AsyncEntry } = require(${JSON.stringify(KEYRING_MODULE)}); new AsyncEntry(process.argv[1], process.argv[2], { linux: { store: 'secret-service' } }).setPassword(process.argv[3]);`;
  const script = [
    'printf unlock-pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1',
    `${shellQuote(process.execPath)} -e ${shellQuote(store)} ${shellQuote(`svcctl:${baseUrl}`)} ${EMAIL} ${shellQuote(PASSWORD)}`,
    ...commands,
  ].join('\n');
  const child = spawn('dbus-run-session', ['--', 'bash', '-c', script], {
    cwd: home,
    env: cleanEnv(home, { SERVICE_BASE_URL: baseUrl }),
    stdio: 'ignore',
  });
  return new Promise((resolve) => child.on('close', () => resolve()));
}

const svcctl = `${shellQuote(process.execPath)} ${shellQuote(BIN)}`;

describe('a secret from a prompt or the keychain: every encoding shown as ***', { concurrency: true }, () => {
  it(`${cellName(PROCESS_CELLS.prompt)}: login at a terminal: a 400 echo of the typed password`, {
    skip: !hasScript && 'util-linux script is not installed',
  }, async () => {
    const home = await tempDir('svcctl-sources-home-');
    const session = underTerminal(`${svcctl} login`, home, {
      SERVICE_EMAIL: EMAIL,
      SERVICE_BASE_URL: echoBaseUrl(service, 400, 'all'),
    });
    await session.waitFor(/Password/);
    session.type(`${PASSWORD}\r`);
    assert.equal(await session.done, 5, session.screen());
    assertHidden(session.screen(), [PASSWORD], 'the terminal');
    assert.ok(session.screen().includes(EVERY_ENCODING_HIDDEN), session.screen());
  });

  it(`${cellName(PROCESS_CELLS.keychain)}: token --refresh with the password of the keychain: a 400 echo; mcp proxy --auth password with it: a 401 echo (log and error answer)`, {
    skip: keychainSkip,
  }, async () => {
    const home = await tempDir('svcctl-sources-home-');
    const baseUrl = echoBaseUrl(service, 400, 'all');
    await saveEntry(home, baseUrl, {
      access_token: SAVED,
      expires_at: '2000-01-01T00:00:00.000Z',
      password_in_keychain: true,
    });
    await keychainScript(home, baseUrl, [
      `${svcctl} token --refresh > refresh.out 2> refresh.err`,
      // stdin stays open until the answer to initialize is in proxy.out (at most 15 s).
      `{ printf '%s\\n' ${shellQuote(INITIALIZE)}; for i in $(seq 150); do [ -s proxy.out ] && break; sleep 0.1; done; } | SERVICE_MCP_URL=${shellQuote(mcp.url('reject', 'all'))} ${svcctl} mcp proxy --auth password > proxy.out 2> proxy.err`,
    ]);
    const [refreshOut, refreshErr, proxyOut, proxyErr] = await Promise.all(
      ['refresh.out', 'refresh.err', 'proxy.out', 'proxy.err'].map((name) => readFile(join(home, name), 'utf8')),
    );
    assertHidden(refreshOut + refreshErr, [PASSWORD], 'token --refresh');
    assert.ok(refreshErr.includes(EVERY_ENCODING_HIDDEN), refreshErr);
    assertProxyHidden({ stdout: proxyOut!, stderr: proxyErr! }, [PASSWORD]);
  });
});

const KEYCHAIN_PROBE = `const { AsyncEntry } = require(${JSON.stringify(fileURLToPath(new URL('../node_modules/@napi-rs/keyring/index.js', import.meta.url)))}); new AsyncEntry(process.argv[1], process.argv[2], { linux: { store: 'secret-service' } }).getPassword().then((v) => console.log('keychain=' + v));`;

describe('the password in the OS keychain', () => {
  it('the keychain path: login --remember-password, a refresh with no password given, logout forgets it', {
    skip: keychainSkip,
  }, async () => {
    // Tokens that are stale when issued: the refresh logs in again at once, with the password of the keychain.
    const short = await startLoginServer({ ttlSeconds: 0, email: EMAIL, password: PASSWORD });
    try {
      const home = await tempDir();
      const svcctl = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)}`;
      // One private D-Bus session with an unlocked gnome-keyring (its keyring files go under the temp HOME).
      const script = [
        'printf unlock-pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1',
        `SERVICE_PASSWORD=${JSON.stringify(PASSWORD)} ${svcctl} login --save --remember-password --email ${EMAIL} >/dev/null; echo "login=$?"`,
        // The argv of the refresh once node runs it (before, it is the forked shell's, the whole script).
        `${svcctl} token --refresh --header & pid=$!; for i in $(seq 500); do tr '\\0' ' ' < /proc/$pid/cmdline > cmdline.txt 2>/dev/null; case $(head -c 4 cmdline.txt) in bash|'') sleep 0.01;; *) break;; esac; done; wait $pid; echo "refresh=$?"`,
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
});
