/**
 * Every source of a secret × every output: a value svcctl read from a
 * variable, a file, stdin, the OS keychain, the saved token, a login's answer
 * or a password prompt is shown as *** in every encoding the redactor knows
 * (ALL_ENCODINGS in test/helpers/secret-encodings.ts), in each output that
 * can carry it back: stdout, stderr, --json, the event `event run` sends (as
 * `svcctl dev` stored it in its events file), the spool, the MCP proxy's log.
 *
 * Two echoes carry a secret back. The command wrapped by `event run` reads the
 * ingest token and the HMAC secret from where svcctl read them and writes each
 * encoding of each on a line of its stderr: the event's message must then be
 * exactly those lines with *** for every value. Servers on 127.0.0.1 answer
 * with the secret they received, once in every encoding: the output must show
 * that answer with *** for each. Every output of a run is also searched for
 * the secrets by decoding it (revealed()). The cells no command reaches are
 * listed with the reason, and a test checks that the table has every cell.
 *
 * The built CLI runs as a process with a temp HOME.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { BIN, cleanEnv, makeTempDir, placeFile, runCli, type RunResult } from './helpers/cli.js';
import { startDev, type DevServer } from './helpers/dev-sandbox.js';
import { echoBaseUrl, startEchoMcpServer, startEchoService, type EchoMcpServer } from './helpers/echo-servers.js';
import type { RecordingServer } from './helpers/recording-server.js';
import { ALL_ENCODINGS, EVERY_ENCODING_HIDDEN, revealed } from './helpers/secret-encodings.js';
import { hasScript, shellQuote, underTerminal } from './helpers/terminal.js';

const TOKEN = 'ingTOK/Zq9+x Y=abc';
const HMAC = 'hmacSEC/7+7 =xyz';
const PASSWORD = 'pwSEKRET/5+5 =q';
const SAVED = 'savedTOK/3+3 =zz';
const EMAIL = 'ops@example.com';
const DEV_PASSWORD = 'devPW/8+8 =mint';

const SOURCES = ['variable', 'file', 'stdin', 'keychain', 'saved token', 'login token', 'password prompt'] as const;
const OUTPUTS = ['stdout', 'stderr', '--json', 'event sent', 'spool file', 'mcp proxy log'] as const;
type Source = (typeof SOURCES)[number];
type OutputName = (typeof OUTPUTS)[number];

/** Cells that no command reaches, and why. */
const NOT_REACHED: Partial<Record<`${Source} × ${OutputName}`, string>> = {
  'stdin × stdout':
    'a password from stdin serves login and token --refresh, whose stdout is the token, printed on purpose',
  'password prompt × stdout': 'a prompted password serves login, whose stdout is the token, printed on purpose',
  'stdin × --json':
    "the --json document of login and token holds the token, its email and expiry, never a service's words (those go to stderr)",
  'password prompt × --json':
    "the --json document of login holds the token, its email and expiry, never a service's words (those go to stderr)",
  'keychain × --json':
    "the --json document of token --refresh holds the token, never a service's words (those go to stderr)",
  'saved token × --json':
    'the saved token is printed on purpose by `token` (also with --json); the proxy that sends it has no --json',
  'login token × --json':
    'a new token is printed on purpose by login and token --refresh (also with --json); the proxy has no --json',
  'stdin × event sent': 'event commands read only the ingest token and the HMAC secret, from a variable or a file',
  'stdin × spool file': 'event commands read only the ingest token and the HMAC secret, from a variable or a file',
  'keychain × event sent': 'event commands read only the ingest token and the HMAC secret, from a variable or a file',
  'keychain × spool file': 'event commands read only the ingest token and the HMAC secret, from a variable or a file',
  'saved token × event sent':
    'event commands read only the ingest token and the HMAC secret, from a variable or a file',
  'saved token × spool file':
    'event commands read only the ingest token and the HMAC secret, from a variable or a file',
  'login token × event sent':
    'event commands read only the ingest token and the HMAC secret, from a variable or a file',
  'login token × spool file':
    'event commands read only the ingest token and the HMAC secret, from a variable or a file',
  'password prompt × event sent': 'event commands never prompt',
  'password prompt × spool file': 'event commands never prompt',
  'stdin × mcp proxy log': 'the proxy reads no password from stdin: stdin carries the MCP protocol',
  'password prompt × mcp proxy log': 'the proxy never prompts (stdin carries the MCP protocol)',
};

let service: RecordingServer;
let mcp: EchoMcpServer;
let dev: DevServer;
let work: string;
let echoScript: string;
let eventsFile: string;

before(async () => {
  work = await makeTempDir('svcctl-sources-');
  eventsFile = join(work, 'events.ndjson');
  [service, mcp, dev] = await Promise.all([
    startEchoService(),
    startEchoMcpServer(),
    startDev(['--webhook', `hooks:${HMAC}`, '--user', `${EMAIL}:${DEV_PASSWORD}`, '--events-file', eventsFile]),
  ]);
  echoScript = await placeFile(work, 'echo-secrets.mjs', ECHO_SCRIPT);
});
after(async () => {
  await Promise.all([service?.close(), mcp?.close(), dev?.stop()]);
});

/**
 * The wrapped command: for each argument (env:NAME or file:PATH), the value read there, written
 * once in every encoding, one line each ("<argument index> <encoding>: <encoded>"), on stderr; exit 3.
 */
const ECHO_SCRIPT = [
  "import { readFileSync } from 'node:fs';",
  `const ENCODINGS = { ${Object.entries(ALL_ENCODINGS)
    .map(([name, encode]) => `${JSON.stringify(name)}: ${encode.toString()}`)
    .join(',\n')} };`,
  "const read = (from) => (from.startsWith('file:') ? readFileSync(from.slice(5), 'utf8').replace(/\\r?\\n$/, '') : process.env[from.slice(4)]);",
  'const lines = process.argv.slice(2).flatMap((from, index) => Object.entries(ENCODINGS).map(([name, encode]) => `${index} ${name}: ${encode(read(from))}`));',
  "process.stderr.write(`${lines.join('\\n')}\\n`);",
  'process.exit(3);',
].join('\n');

/** The message the echo's lines must become: every value *** . */
const hiddenLines = (count: number): string =>
  Array.from({ length: count }, (_unused, index) => Object.keys(ALL_ENCODINGS).map((name) => `${index} ${name}: ***`))
    .flat()
    .join('\n');

/** The message of an event body as sent ({"event":{"payload":"<JSON>"}}). */
const messageOf = (event: { payload: string }): string => (JSON.parse(event.payload) as { message: string }).message;

function assertHidden(text: string, secrets: string[], where: string): void {
  assert.deepEqual(revealed(text, secrets), [], `${where} reveals a secret:\n${text}`);
}

/** How the ingest token, the HMAC secret and the password are given, by a variable or by a file. */
interface Given {
  env: Record<string, string>;
  eventFlags: string[];
  passwordFlags: string[];
  /** The echo's arguments: where the token and the HMAC secret are read. */
  echoFrom: string[];
}

async function given(source: 'variable' | 'file', home: string, token = TOKEN): Promise<Given> {
  if (source === 'variable') {
    return {
      env: { SERVICE_INGEST_TOKEN: token, SERVICE_HMAC_SECRET: HMAC, SERVICE_PASSWORD: PASSWORD, SERVICE_EMAIL: EMAIL },
      eventFlags: [],
      passwordFlags: [],
      echoFrom: ['env:SERVICE_INGEST_TOKEN', 'env:SERVICE_HMAC_SECRET'],
    };
  }
  await placeFile(home, 'tok.txt', `${token}\n`);
  await placeFile(home, 'sec.txt', `${HMAC}\n`);
  await placeFile(home, 'pw.txt', `${PASSWORD}\n`);
  return {
    env: { SERVICE_EMAIL: EMAIL },
    eventFlags: ['--token-file', 'tok.txt', '--hmac-secret-file', 'sec.txt'],
    passwordFlags: ['--password-file', 'pw.txt'],
    echoFrom: ['file:tok.txt', 'file:sec.txt'],
  };
}

const run = async (args: string[], home: string, env: Record<string, string>, input?: string): Promise<RunResult> =>
  runCli(args, { home, env, input, timeoutMs: 30_000 });

const echoRun = (g: Given, extra: string[]): string[] => [
  'event',
  'run',
  '--tail',
  '100',
  ...extra,
  ...g.eventFlags,
  '--',
  process.execPath,
  echoScript,
  ...g.echoFrom,
];

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'svcctl-test', version: '1.0.0' } },
});

/** `svcctl mcp proxy ARGS`: sends initialize, waits for the answer on stdout, then closes stdin. */
async function proxyExchange(
  args: string[],
  home: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'mcp', 'proxy', ...args], {
    cwd: home,
    env: cleanEnv(home, env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const answered = new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (stdout.includes('\n')) resolve();
    }),
  );
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  child.stdin.write(`${INITIALIZE}\n`);
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await Promise.race([answered, closed]);
  child.stdin.end();
  const code = await closed;
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** The proxy's answer to initialize is an error whose message, like the log, shows the echo hidden. */
function assertProxyHidden(result: { stdout: string; stderr: string }, secrets: string[]): void {
  assertHidden(result.stdout, secrets, 'the proxy stdout');
  assertHidden(result.stderr, secrets, 'the proxy log');
  assert.ok(result.stderr.includes(EVERY_ENCODING_HIDDEN), `the log shows the echo hidden:\n${result.stderr}`);
  const answer = JSON.parse(result.stdout.split('\n')[0]!) as { error?: { message: string } };
  assert.ok(
    answer.error?.message.includes(EVERY_ENCODING_HIDDEN),
    `the error answer shows the echo hidden: ${result.stdout}`,
  );
}

async function filesIn(folder: string): Promise<string[]> {
  return (await readdir(folder, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The event the sandbox stored under `title` (its events file is written a moment after the answer). */
async function storedEvent(title: string): Promise<{ payload: string }> {
  for (let tries = 0; tries < 50; tries++) {
    const text = await readFile(eventsFile, 'utf8').catch(() => '');
    const found = text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { event: { title: string; payload: string } })
      .find((stored) => stored.event.title === title);
    if (found) {
      assertHidden(text, [dev.ready.webhooks[0]!.ingest_token, HMAC], 'the events file');
      return found.event;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no event '${title}' in ${eventsFile}`);
}

interface Cell {
  source: Source;
  outputs: OutputName[];
  what: string;
  skip?: string | false;
  check(home: string): Promise<void>;
}

function eventCells(source: 'variable' | 'file'): Cell[] {
  return [
    {
      source,
      outputs: ['stdout'],
      what: 'event run --dry-run: the request printed, its message',
      async check(home) {
        const g = await given(source, home);
        const result = await run(echoRun(g, ['--dry-run']), home, {
          ...g.env,
          SERVICE_BASE_URL: 'http://127.0.0.1:9/api',
        });
        assert.equal(result.code, 3, result.stderr);
        assertHidden(result.stdout, [TOKEN, HMAC], 'stdout');
        const body = result.stdout.slice(result.stdout.indexOf('\n\n') + 2);
        assert.equal(messageOf((JSON.parse(body) as { event: { payload: string } }).event), hiddenLines(2));
      },
    },
    {
      source,
      outputs: ['--json'],
      what: '--json event run --dry-run: the request as JSON, its message; --json event send: a 401 echo in "error" and "response"',
      async check(home) {
        const g = await given(source, home);
        const dry = await run(['--json', ...echoRun(g, ['--dry-run'])], home, {
          ...g.env,
          SERVICE_BASE_URL: 'http://127.0.0.1:9/api',
        });
        assert.equal(dry.code, 3, dry.stderr);
        assertHidden(dry.stdout, [TOKEN, HMAC], 'stdout');
        const request = JSON.parse(dry.stdout) as { body: string };
        assert.equal(messageOf((JSON.parse(request.body) as { event: { payload: string } }).event), hiddenLines(2));

        const sent = await run(['--json', 'event', 'send', '--title', 'x', '--retries', '0', ...g.eventFlags], home, {
          ...g.env,
          SERVICE_BASE_URL: echoBaseUrl(service, 401, 'all'),
        });
        assert.equal(sent.code, 4, sent.stderr);
        assertHidden(sent.stdout + sent.stderr, [TOKEN, HMAC], 'the output');
        const result = JSON.parse(sent.stdout) as { error: string; response: unknown };
        assert.deepEqual(result.response, JSON.parse(EVERY_ENCODING_HIDDEN));
        assert.ok(result.error.includes(EVERY_ENCODING_HIDDEN), result.error);
      },
    },
    {
      source,
      outputs: ['stderr'],
      what: 'event send: a 401 echo of the token; login: a 400 echo of the password',
      async check(home) {
        const g = await given(source, home);
        const sent = await run(['event', 'send', '--title', 'x', '--retries', '0', ...g.eventFlags], home, {
          ...g.env,
          SERVICE_BASE_URL: echoBaseUrl(service, 401, 'all'),
        });
        assert.equal(sent.code, 4, sent.stderr);
        assertHidden(sent.stdout + sent.stderr, [TOKEN, HMAC], 'the output');
        assert.ok(sent.stderr.includes(EVERY_ENCODING_HIDDEN), sent.stderr);
        const login = await run(['login', ...g.passwordFlags], home, {
          ...g.env,
          SERVICE_BASE_URL: echoBaseUrl(service, 400, 'all'),
        });
        assert.equal(login.code, 5, login.stderr);
        assertHidden(login.stdout + login.stderr, [PASSWORD], 'the output');
        assert.ok(login.stderr.includes(EVERY_ENCODING_HIDDEN), login.stderr);
      },
    },
    {
      source,
      outputs: ['event sent'],
      what: 'event run: the event as svcctl dev stored it in its events file',
      async check(home) {
        const token = dev.ready.webhooks[0]!.ingest_token;
        const g = await given(source, home, token);
        const title = `redaction from a ${source}`;
        const result = await run(echoRun(g, ['--title', title]), home, {
          ...g.env,
          SERVICE_BASE_URL: dev.ready.base_url,
        });
        assert.equal(result.code, 3, result.stderr);
        assert.doesNotMatch(result.stderr, /not sent/);
        assert.equal(messageOf(await storedEvent(title)), hiddenLines(2));
      },
    },
    {
      source,
      outputs: ['spool file'],
      what: 'event run --spool: the event kept for a 503; event flush: the answer kept beside a rejected event',
      async check(home) {
        const g = await given(source, home);
        const result = await run(echoRun(g, ['--spool', 'spool', '--retries', '0']), home, {
          ...g.env,
          SERVICE_BASE_URL: echoBaseUrl(service, 503, 'all'),
        });
        assert.equal(result.code, 3, result.stderr);
        const [spooled, ...others] = await filesIn(join(home, 'spool'));
        assert.equal(others.length, 0);
        const text = await readFile(spooled!, 'utf8');
        assertHidden(text, [TOKEN, HMAC], 'the spool file');
        assert.equal(messageOf((JSON.parse(text) as { event: { payload: string } }).event), hiddenLines(2));

        const id = '0f2c9d4e-5b6a-4c3d-8e7f-112233445566';
        await placeFile(home, `rejects/${id}.json`, JSON.stringify({ event: { id, title: 'x', payload: '{}' } }));
        const flush = await run(['event', 'flush', '--spool', 'rejects', '--retries', '0', ...g.eventFlags], home, {
          ...g.env,
          SERVICE_BASE_URL: echoBaseUrl(service, 400, 'all'),
        });
        const answer = await readFile(join(home, 'rejects', 'rejected', `${id}.answer.txt`), 'utf8');
        assertHidden(answer + flush.stdout + flush.stderr, [TOKEN, HMAC], 'the answer kept in the spool');
        assert.deepEqual(answer.split('\n').slice(1, 2), [EVERY_ENCODING_HIDDEN], answer);
      },
    },
    {
      source,
      outputs: ['mcp proxy log'],
      what: 'mcp proxy --auth password: a 401 echo of the password',
      async check(home) {
        const g = await given(source, home);
        const result = await proxyExchange(['--auth', 'password', ...g.passwordFlags], home, {
          ...g.env,
          SERVICE_MCP_URL: mcp.url('reject', 'all'),
        });
        assertProxyHidden(result, [PASSWORD]);
      },
    },
  ];
}

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

async function saveEntry(home: string, baseUrl: string, entry: Record<string, unknown>): Promise<void> {
  await placeFile(
    home,
    '.config/svcctl/credentials.json',
    JSON.stringify({
      version: 1,
      tokens: { [baseUrl]: { email: EMAIL, saved_at: '2026-01-01T00:00:00.000Z', ...entry } },
    }),
  );
}

const svcctl = `${shellQuote(process.execPath)} ${shellQuote(BIN)}`;

const CELLS: Cell[] = [
  ...eventCells('variable'),
  ...eventCells('file'),
  {
    source: 'stdin',
    outputs: ['stderr'],
    what: 'login --password-stdin: a 400 echo of the password',
    async check(home) {
      const result = await run(
        ['login', '--password-stdin'],
        home,
        { SERVICE_EMAIL: EMAIL, SERVICE_BASE_URL: echoBaseUrl(service, 400, 'all') },
        `${PASSWORD}\n`,
      );
      assert.equal(result.code, 5, result.stderr);
      assertHidden(result.stdout + result.stderr, [PASSWORD], 'the output');
      assert.ok(result.stderr.includes(EVERY_ENCODING_HIDDEN), result.stderr);
    },
  },
  {
    source: 'password prompt',
    outputs: ['stderr'],
    what: 'login at a terminal: a 400 echo of the typed password',
    skip: !hasScript && 'util-linux script is not installed',
    async check(home) {
      const session = underTerminal(`${svcctl} login`, home, {
        SERVICE_EMAIL: EMAIL,
        SERVICE_BASE_URL: echoBaseUrl(service, 400, 'all'),
      });
      await session.waitFor(/Password/);
      session.type(`${PASSWORD}\r`);
      assert.equal(await session.done, 5, session.screen());
      assertHidden(session.screen(), [PASSWORD], 'the terminal');
      assert.ok(session.screen().includes(EVERY_ENCODING_HIDDEN), session.screen());
    },
  },
  {
    source: 'keychain',
    outputs: ['stderr', 'stdout', 'mcp proxy log'],
    what: 'token --refresh with the password of the keychain: a 400 echo; mcp proxy --auth password with it: a 401 echo (log and error answer)',
    skip: keychainSkip,
    async check(home) {
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
    },
  },
  {
    source: 'saved token',
    outputs: ['stderr', 'stdout', 'mcp proxy log'],
    what: 'mcp proxy (bearer) with the saved token: a 403 echo (log and error answer)',
    async check(home) {
      const baseUrl = 'http://127.0.0.1:9/api';
      await saveEntry(home, baseUrl, { access_token: SAVED, expires_at: null });
      // A 403, not a 401: with no password, a 401 would end in "the service refused the saved token" without its answer.
      const result = await proxyExchange([], home, {
        SERVICE_BASE_URL: baseUrl,
        SERVICE_MCP_URL: mcp.url('forbid', 'all'),
      });
      assertProxyHidden(result, [SAVED]);
    },
  },
  {
    source: 'login token',
    outputs: ['stderr', 'stdout', 'mcp proxy log'],
    what: 'mcp proxy (bearer) logging in to svcctl dev for its token: a 401 echo of that token (log and error answer)',
    async check(home) {
      const result = await proxyExchange([], home, {
        SERVICE_BASE_URL: dev.ready.base_url,
        SERVICE_EMAIL: EMAIL,
        SERVICE_PASSWORD: DEV_PASSWORD,
        SERVICE_MCP_URL: mcp.url('reject', 'all'),
      });
      const saved = JSON.parse(await readFile(join(home, '.config/svcctl/credentials.json'), 'utf8')) as {
        tokens: Record<string, { access_token: string }>;
      };
      const minted = saved.tokens[dev.ready.base_url]!.access_token;
      assert.match(minted, /^ey/, 'a JWT minted by the sandbox');
      assertProxyHidden(result, [minted, DEV_PASSWORD]);
    },
  },
];

describe('each secret source × each output: every encoding of the secret shown as ***', { concurrency: 4 }, () => {
  for (const cell of CELLS) {
    it(`${cell.source} × ${cell.outputs.join(', ')}: ${cell.what}`, { skip: cell.skip }, async () => {
      await cell.check(await makeTempDir('svcctl-sources-home-'));
    });
  }

  it('the table has every cell: reached by a check above, or listed with why no command reaches it', () => {
    for (const source of SOURCES) {
      for (const output of OUTPUTS) {
        const reached = CELLS.some((cell) => cell.source === source && cell.outputs.includes(output));
        const reason = NOT_REACHED[`${source} × ${output}`];
        assert.ok(
          reached !== (reason !== undefined),
          `${source} × ${output}: ${reached ? 'reached and listed as not reached' : 'neither reached nor explained'}`,
        );
      }
    }
  });
});
