/**
 * No credential goes over plain http to a host other than loopback unless the
 * user says so (--allow-http or SVCCTL_ALLOW_HTTP=1), and the refusal comes
 * before any connection. The remote host is example.invalid (it never
 * resolves), and HTTP_PROXY names a recorder on 127.0.0.1 that sees every
 * attempt svcctl's own transports make there: it must see none unless
 * allowed. Loopback, [::ffff:127.0.0.1] included, is never refused.
 */
import assert from 'node:assert/strict';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isLoopbackHost } from '../src/config/settings.js';
import { runCli, type RunResult } from './helpers/cli.js';
import { EMAIL, PASSWORD, startLoginServer, type LoginServer } from './helpers/login-server.js';
import { startRecordingServer, type RecordingServer } from './helpers/recording-server.js';
import { spoolFolderFor } from './helpers/spool-layout.js';
import { tempDir } from './helpers/temp-dirs.js';
import { startProxyRecorder } from './helpers/proxy-recorder.js';

const REMOTE = 'http://example.invalid/api';

const startRecorder = startProxyRecorder;

let recorder: Awaited<ReturnType<typeof startRecorder>>;
before(async () => {
  recorder = await startRecorder();
});
after(() => recorder.close());

const creds = { SERVICE_INGEST_TOKEN: 'ingest-tok-31337', SERVICE_EMAIL: EMAIL, SERVICE_PASSWORD: PASSWORD };

async function run(args: string[], env: Record<string, string> = {}, input?: string): Promise<RunResult> {
  const home = await tempDir('svcctl-plain-http-');
  return runCli(args, {
    home,
    env: { HTTP_PROXY: recorder.url, NO_PROXY: '', ...creds, ...env },
    ...(input !== undefined ? { input } : {}),
  });
}

function assertRefused(result: RunResult, what: string, url = REMOTE): void {
  assert.equal(result.code, 2, result.stderr);
  assert.ok(
    result.stderr.includes(`error: refusing to send ${what} to example.invalid over plain http (${url})`),
    result.stderr,
  );
  assert.ok(result.stderr.includes('hint: use https://example.invalid/'), result.stderr);
  assert.match(result.stderr, /pass --allow-http or set SVCCTL_ALLOW_HTTP=1/);
  assert.doesNotMatch(result.stderr, /uses plain http: credentials .* travel unencrypted/, 'a refusal, not a warning');
  assert.ok(!result.stderr.includes(creds.SERVICE_INGEST_TOKEN) && !result.stderr.includes(PASSWORD));
}

describe('loopback, by name or address alone', () => {
  const hostOf = (url: string): string => new URL(url).hostname;
  for (const url of [
    'http://localhost:1/',
    'http://127.0.0.1/',
    'http://127.8.9.10/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[0:0:0:0:0:ffff:7f01:203]/',
    'http://2130706433/',
    'http://LOCALHOST/',
  ]) {
    it(`${url} (${hostOf(url)}) is loopback`, () => assert.equal(isLoopbackHost(hostOf(url)), true));
  }
  for (const url of [
    'http://example.invalid/',
    'http://10.0.0.5/',
    'http://128.0.0.1/',
    'http://[::ffff:10.0.0.1]/',
    'http://[::ffff:a00:1]/',
    'http://[::2]/',
    'http://127.0.0.1.example.invalid/',
    'http://localhost.example.invalid/',
    'http://app.localhost/',
  ]) {
    it(`${url} (${hostOf(url)}) is not`, () => assert.equal(isLoopbackHost(hostOf(url)), false));
  }
});

describe('plain http to a host other than loopback: refused before any connection', () => {
  it('event send: the ingest token and signature; --dry-run sends nothing and still works (with the warning)', async () => {
    assertRefused(
      await run(['event', 'send', '--title', 'x', '--base-url', REMOTE], { SERVICE_HMAC_SECRET: 'hmac-secret-31337' }),
      "the ingest token and the event's signature",
    );
    const dry = await run(['event', 'send', '--title', 'x', '--dry-run', '--base-url', REMOTE]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stderr, /warning: http:\/\/example\.invalid\/api uses plain http/);
    assert.deepEqual(recorder.seen, []);
  });

  it('event flush: nothing sent, the spooled event stays', async () => {
    const home = await tempDir('svcctl-plain-http-flush-');
    const spool = join(home, 'spool');
    await mkdir(spool, { mode: 0o700 });
    const queued = await runCli(
      ['event', 'send', '--title', 'x', '--base-url', 'http://127.0.0.1:9/api', '--retries', '0', '--spool', spool],
      { home, env: creds },
    );
    const kept = spoolFolderFor(spool, 'http://127.0.0.1:9/api');
    assert.equal((await readdir(kept)).filter((name) => name.endsWith('.json')).length, 1, queued.stderr);
    const flush = await runCli(['event', 'flush', '--spool', spool, '--base-url', REMOTE], {
      home,
      env: { HTTP_PROXY: recorder.url, ...creds },
    });
    assertRefused(flush, "the ingest token and the events' signatures");
    assert.equal((await readdir(kept)).filter((name) => name.endsWith('.json')).length, 1);
    assert.deepEqual(recorder.seen, []);
  });

  it('event run: the command runs and keeps its exit code; the event is not sent, and says why', async () => {
    const result = await run([
      'event',
      'run',
      '--always',
      '--base-url',
      REMOTE,
      '--',
      process.execPath,
      '-e',
      'process.exit(3)',
    ]);
    assert.equal(result.code, 3, result.stderr);
    assert.match(
      result.stderr,
      /error: the event was not sent: refusing to send the ingest token and the event's signature to example\.invalid over plain http/,
    );
    assert.deepEqual(recorder.seen, []);
  });

  it('login: refused before the password is read', async () => {
    assertRefused(await run(['login', '--base-url', REMOTE]), 'the password');
    assertRefused(
      await run(['login', '--email', EMAIL, '--password-stdin', '--base-url', REMOTE], {}, `${PASSWORD}\n`),
      'the password',
    );
    assert.deepEqual(recorder.seen, []);
  });

  it('token: a refresh (a login) is refused', async () => {
    const result = await run(['token', '--refresh', '--base-url', REMOTE]);
    assertRefused(result, 'the password');
    assert.deepEqual(recorder.seen, []);
  });

  it('mcp proxy: the password headers (password mode) and the bearer token (bearer mode), SERVICE_MCP_URL too', async () => {
    assertRefused(await run(['mcp', 'proxy', '--auth', 'password', '--base-url', REMOTE]), 'the password headers');
    assertRefused(
      await run(['mcp', 'proxy', '--auth', 'bearer', '--base-url', REMOTE]),
      'the password (to refresh the token)',
    );
    assertRefused(
      await run(['mcp', 'proxy', '--auth', 'bearer', '--base-url', 'https://example.invalid/api'], {
        SERVICE_MCP_URL: 'http://example.invalid/mcp',
      }),
      'the bearer token',
      'http://example.invalid/mcp',
    );
  });

  it('mcp doctor and status --check: the remote entry is not tried (exit 8), its credentials not sent', async () => {
    const home = await tempDir('svcctl-plain-http-doctor-');
    const env = { HTTP_PROXY: recorder.url, ...creds };
    const install = await runCli(['mcp', 'install', '--client', 'cursor', '--mode', 'remote', '--base-url', REMOTE], {
      home,
      env,
    });
    assert.equal(install.code, 0, install.stderr);
    for (const args of [
      ['mcp', 'doctor', '--client', 'cursor'],
      ['status', '--check'],
    ]) {
      const result = await runCli(args, { home, env });
      assert.equal(result.code, 8, result.stderr);
      assert.match(
        result.stdout + result.stderr,
        /initialize: not tried: refusing to send the entry's credentials to example\.invalid over plain http \(http:\/\/example\.invalid\/mcp\)/,
      );
      assert.doesNotMatch(result.stdout + result.stderr, /resolve|ENOTFOUND|fetch failed/, 'no connection was tried');
    }
  });
});

describe('--allow-http and SVCCTL_ALLOW_HTTP=1: sent, with the warning', () => {
  for (const [how, args, env] of [
    ['--allow-http', ['--allow-http'], {}],
    ['SVCCTL_ALLOW_HTTP=1', [], { SVCCTL_ALLOW_HTTP: '1' }],
  ] as const) {
    it(`${how}: event send and login reach the network (here: the recorder standing in for a proxy)`, async () => {
      recorder.seen.length = 0;
      const send = await run([...args, 'event', 'send', '--title', 'x', '--retries', '0', '--base-url', REMOTE], env);
      assert.notEqual(send.code, 2, send.stderr);
      assert.match(
        send.stderr,
        /warning: http:\/\/example\.invalid\/api uses plain http: credentials and events travel unencrypted/,
      );
      const login = await run([...args, 'login', '--base-url', REMOTE], env);
      assert.notEqual(login.code, 2, login.stderr);
      // svcctl tunnels through a proxy (CONNECT) even for http; the recorder answers 502 and forwards nothing.
      assert.deepEqual(recorder.seen, ['CONNECT example.invalid:80', 'CONNECT example.invalid:80']);
      recorder.seen.length = 0;
    });
  }
});

describe('an entry that runs svcctl (--token helper)', () => {
  it('gets --allow-http only when the install had it, and only for a plain-http URL to another host', async () => {
    const argsOf = async (global: string[], baseUrl: string): Promise<string[]> => {
      const result = await run([
        ...global,
        'mcp',
        'print',
        '--client',
        'cursor',
        '--mode',
        'proxy',
        '--auth',
        'bearer',
        '--token',
        'helper',
        '--base-url',
        baseUrl,
      ]);
      assert.equal(result.code, 0, result.stderr);
      return JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))).mcpServers.service.args as string[];
    };
    assert.ok(
      !(await argsOf([], REMOTE)).includes('--allow-http'),
      'not given: the entry will be refused, and says how to allow it',
    );
    assert.ok((await argsOf(['--allow-http'], REMOTE)).includes('--allow-http'));
    assert.ok(!(await argsOf(['--allow-http'], 'https://example.invalid/api')).includes('--allow-http'));
    assert.ok(!(await argsOf(['--allow-http'], 'http://127.0.0.1:8080/api')).includes('--allow-http'));
    assert.deepEqual(recorder.seen, []);
  });
});

describe('loopback is never refused (svcctl dev)', () => {
  let login: LoginServer;
  let events: RecordingServer;
  before(async () => {
    login = await startLoginServer();
    events = await startRecordingServer();
  });
  after(async () => {
    await login.close();
    await events.close();
  });

  for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]']) {
    it(`http://${host}: login and event send succeed without a warning`, async () => {
      const port = new URL(login.baseUrl).port;
      const result = await run(['login', '--base-url', `http://${host}:${port}/api`], { NO_PROXY: '*' });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout.trim(), login.issued.at(-1));
      const send = await run(
        ['event', 'send', '--title', 'x', '--base-url', `http://${host}:${new URL(events.baseUrl).port}/api`],
        { NO_PROXY: '*' },
      );
      assert.equal(send.code, 0, send.stderr);
      assert.doesNotMatch(result.stderr + send.stderr, /plain http/);
    });
  }
  it('the loopback requests reached the servers', () => {
    assert.equal(login.logins().length, 3);
    assert.equal(events.requests.length, 3);
  });
});
