/**
 * The password of a URL's userinfo is hidden in every output, whoever's it is:
 * svcctl never read it, so only its place says it is a secret. The outputs:
 * the event `event run` sends (as `svcctl dev` stored it) and its --dry-run
 * with and without --json, event send's error and --json, login's error, the
 * MCP proxy's JSON-RPC error answer and its log. Also config.toml: `deployment
 * list` (and --json) shows no userinfo password, query value or fragment of a
 * hand-edited URL, and `deployment add` does not echo the token it refuses.
 * Real servers on 127.0.0.1 answer with the URLs; svcctl runs in-process with a temp HOME.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { placeFile, runCli } from './helpers/cli.js';
import { startDev, type DevServer } from './helpers/dev-sandbox.js';
import { proxyExchange } from './helpers/proxy-exchange.js';
import { startRecordingServer, type RecordingServer } from './helpers/recording-server.js';
import { storedEvent as storedEventIn } from './helpers/poll.js';
import { tempDir } from './helpers/temp-dirs.js';

/** Passwords svcctl never read: in URLs a job prints, a server answers, a user pasted into config.toml. */
const DB_PASSWORD = 'dbPW-7x%2Funknown';
const BOB_PASSWORD = 'SECRET-b0b';
const QUERY_TOKEN = 'qTok-1234567';
const FRAGMENT_TOKEN = 'fragTok-89';
const UNKNOWN = [DB_PASSWORD, BOB_PASSWORD, QUERY_TOKEN, FRAGMENT_TOKEN];

const PRINTED = `DATABASE_URL=postgres://app:${DB_PASSWORD}@db.internal:5432/x\nretrying https://bob:${BOB_PASSWORD}@h.example/a`;
const PRINTED_HIDDEN = 'DATABASE_URL=postgres://app:***@db.internal:5432/x\nretrying https://bob:***@h.example/a';
/** An answer naming the URLs, in JSON (its slashes escaped once, as some servers write them). */
const ANSWER = JSON.stringify({ error: `cannot reach postgres://app:${DB_PASSWORD}@db.internal:5432/x` }).replace(
  /\//g,
  '\\/',
);

const HMAC = 'hmacSEC/7+7 =xyz';

let dev: DevServer;
let service: RecordingServer;
let work: string;
let eventsFile: string;

before(async () => {
  work = await tempDir('svcctl-url-passwords-');
  eventsFile = join(work, 'events.ndjson');
  [dev, service] = await Promise.all([
    startDev(['--webhook', `hooks:${HMAC}`, '--events-file', eventsFile]),
    startRecordingServer((request) => ({
      status: Number(request.url.split('/')[1]),
      headers: { 'content-type': 'application/json' },
      body: ANSWER,
    })),
  ]);
});
after(async () => {
  await Promise.all([dev?.stop(), service?.close()]);
});

function assertNoPassword(text: string, where: string): void {
  for (const password of UNKNOWN) assert.ok(!text.includes(password), `${where} shows ${password}:\n${text}`);
}

const home = (): Promise<string> => tempDir('svcctl-url-passwords-home-');
const printing = [
  '--',
  process.execPath,
  '-e',
  `process.stderr.write(${JSON.stringify(`${PRINTED}\n`)}); process.exit(2)`,
];
const messageOf = (event: { payload: string }): string => (JSON.parse(event.payload) as { message: string }).message;

const storedEvent = (title: string): Promise<{ payload: string }> => storedEventIn(eventsFile, title);

describe('a URL password svcctl never read is hidden', { concurrency: 4 }, () => {
  it("event run: the event svcctl dev stored, --dry-run's request, and with --json", async () => {
    const env = {
      SERVICE_BASE_URL: dev.ready.base_url,
      SERVICE_INGEST_TOKEN: dev.ready.webhooks[0]!.ingest_token,
      SERVICE_HMAC_SECRET: HMAC,
    };
    const sent = await runCli(['event', 'run', '--title', 'url passwords', ...printing], { home: await home(), env });
    assert.equal(sent.code, 2, sent.stderr);
    assert.equal(messageOf(await storedEvent('url passwords')), PRINTED_HIDDEN);

    const dry = await runCli(['event', 'run', '--dry-run', ...printing], { home: await home(), env });
    assertNoPassword(dry.stdout, 'event run --dry-run');
    const body = dry.stdout.slice(dry.stdout.indexOf('\n\n') + 2);
    assert.equal(messageOf((JSON.parse(body) as { event: { payload: string } }).event), PRINTED_HIDDEN);

    const json = await runCli(['--json', 'event', 'run', '--dry-run', ...printing], { home: await home(), env });
    assertNoPassword(json.stdout, 'event run --dry-run --json');
    const request = JSON.parse(json.stdout) as { body: string };
    assert.equal(messageOf((JSON.parse(request.body) as { event: { payload: string } }).event), PRINTED_HIDDEN);
  });

  it('event send: the error on stderr and in --json ("error" and "response")', async () => {
    const env = {
      SERVICE_BASE_URL: `${service.origin}/401/api`,
      SERVICE_INGEST_TOKEN: 'ingTOK/Zq9+x Y=abc',
      SERVICE_HMAC_SECRET: HMAC,
    };
    const plain = await runCli(['event', 'send', '--title', 'x', '--retries', '0'], { home: await home(), env });
    assert.equal(plain.code, 4, plain.stderr);
    assertNoPassword(plain.stderr, 'event send');
    assert.match(plain.stderr, /postgres:\/\/app:\*\*\*@db\.internal:5432\/x/);
    const json = await runCli(['--json', 'event', 'send', '--title', 'x', '--retries', '0'], {
      home: await home(),
      env,
    });
    assertNoPassword(json.stdout + json.stderr, 'event send --json');
    const result = JSON.parse(json.stdout) as { error: string; response: { error: string } };
    assert.equal(result.response.error, 'cannot reach postgres://app:***@db.internal:5432/x');
    assert.match(result.error, /postgres:\/\/app:\*\*\*@db/);
  });

  it("login: the service's answer in the error", async () => {
    const result = await runCli(['login'], {
      home: await home(),
      env: {
        SERVICE_BASE_URL: `${service.origin}/400/api`,
        SERVICE_EMAIL: 'ops@example.com',
        SERVICE_PASSWORD: 'pwSEKRET/5+5 =q',
      },
    });
    assert.equal(result.code, 5, result.stderr);
    assertNoPassword(result.stderr, 'login');
    assert.match(result.stderr, /postgres:\/\/app:\*\*\*@db/);
  });

  it('mcp proxy: the JSON-RPC error answer (it reaches the model) and the log', async () => {
    const folder = await home();
    const env = {
      SERVICE_MCP_URL: `${service.origin}/401/mcp`,
      SERVICE_EMAIL: 'ops@example.com',
      SERVICE_PASSWORD: 'pwSEKRET/5+5 =q',
    };
    const { stdout, stderr } = await proxyExchange(['--auth', 'password'], folder, env);
    assertNoPassword(stdout + stderr, 'mcp proxy');
    const answer = JSON.parse(stdout.split('\n')[0]!) as { error?: { message: string } };
    assert.match(answer.error?.message ?? '', /postgres:\\?\/\\?\/app:\*\*\*@db/, stdout);
  });
});

describe('config.toml: deployments show no password or token of a hand-edited URL', () => {
  const URL_IN_FILE = `https://bob:${BOB_PASSWORD}@acme.example/api?token=${QUERY_TOKEN}&x=1#${FRAGMENT_TOKEN}`;

  it('deployment list, as text and with --json', async () => {
    const folder = await home();
    await placeFile(
      folder,
      '.config/svcctl/config.toml',
      `default = "acme"\n[deployments.acme]\nbase_url = "${URL_IN_FILE}"\n`,
    );
    const text = await runCli(['deployment', 'list'], { home: folder });
    assert.equal(text.code, 0, text.stderr);
    assertNoPassword(text.stdout + text.stderr, 'deployment list');
    assert.match(text.stdout, /^\* acme {2}https:\/\/bob:\*\*\*@acme\.example\/api\?token=\*\*\*&x=1#\*\*\*$/m);
    const json = await runCli(['--json', 'deployment', 'list'], { home: folder });
    assertNoPassword(json.stdout + json.stderr, 'deployment list --json');
    assert.deepEqual(JSON.parse(json.stdout), [
      {
        name: 'acme',
        // A query value is masked by its key's name (the one rule, src/redaction/mask-entry.ts): x=1 says nothing secret.
        base_url: 'https://bob:***@acme.example/api?token=***&x=1#***',
        default: true,
        logged_in: false,
      },
    ]);
  });

  it('deployment add: the refusal of a query or fragment does not echo the token', async () => {
    const result = await runCli(
      ['deployment', 'add', 'acme', `https://acme.example/api?token=${QUERY_TOKEN}#${FRAGMENT_TOKEN}`],
      { home: await home() },
    );
    assert.equal(result.code, 2, result.stderr);
    assertNoPassword(result.stderr, 'deployment add');
    assert.match(
      result.stderr,
      /must not have a query or fragment: 'https:\/\/acme\.example\/api\?token=\*\*\*#\*\*\*'/,
    );
    const userinfo = await runCli(['deployment', 'add', 'acme', `https://bob:${BOB_PASSWORD}@acme.example/v2`], {
      home: await home(),
    });
    assert.equal(userinfo.code, 2, userinfo.stderr);
    assertNoPassword(userinfo.stderr, 'deployment add');
  });
});
