/**
 * Secrets never shown, in any encoding: every output path that prints what a
 * server or a child process said (event send's stderr and --json, login's
 * messages, mcp doctor's lines and --json details, mcp install's diffs) ×
 * every encoding an echo may use (test/helpers/secret-encodings.ts). Real
 * servers on 127.0.0.1 echo what they received; svcctl runs in-process with a
 * temp HOME; stdout, stderr and every file left in HOME are searched for each
 * secret by decoding them. Also: folders made for literal secrets are 0700
 * under umask 000, and the sandbox rejects a JWT whose signature text differs.
 */
import assert from 'node:assert/strict';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { placeFile, runCli, type RunResult } from './helpers/cli.js';
import { startDev } from './helpers/dev-sandbox.js';
import { echoBaseUrl, startEchoMcpServer, startEchoService, type EchoMcpServer } from './helpers/echo-servers.js';
import { eventLines } from './helpers/event-lines.js';
import type { RecordingServer } from './helpers/recording-server.js';
import { ENCODING_NAMES, ENCODINGS, revealed } from './helpers/secret-encodings.js';
import { tempDir } from './helpers/temp-dirs.js';

const TOKEN = 'ingTOK/Zq9+xY=abc';
const HMAC = 'hmacSEC/7+7=xyz';
const PASSWORD = 'pwSEKRET/5+5=';
const EMAIL = 'new.user@example.com';
const ARG_SECRET = 'argSEC/9+9=q';
/** Another entry's secrets in a client's file: after a flag in its args, and a literal that starts with $ and a capital. */
const OLD_ARG = 'oldARG/SECRET+1';
const DOLLAR = '$Ecret-lit/9+';
const ALL = [TOKEN, HMAC, PASSWORD, ARG_SECRET, OLD_ARG, DOLLAR];

let service: RecordingServer;
let mcp: EchoMcpServer;
let work: string;
before(async () => {
  [service, mcp, work] = await Promise.all([startEchoService(), startEchoMcpServer(), tempDir('svcctl-redaction-')]);
});
after(async () => {
  await Promise.all([service?.close(), mcp?.close(), rm(work, { recursive: true, force: true })]);
});

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** Runs the CLI in a fresh HOME (after `prepare` fills it) and asserts no secret can be read from anything it left. */
async function runChecked(
  args: string[],
  env: Record<string, string>,
  prepare?: (home: string) => Promise<string[]>,
): Promise<RunResult> {
  const home = await tempDir('svcctl-redaction-home-');
  try {
    const inputs = new Set(prepare ? await prepare(home) : []);
    const result = await runCli(args, { home, env, timeoutMs: 30_000 });
    assert.deepEqual(revealed(result.stdout, ALL), [], `stdout: ${result.stdout}`);
    assert.deepEqual(revealed(result.stderr, ALL), [], `stderr: ${result.stderr}`);
    for (const file of await filesUnder(home)) {
      if (!inputs.has(file))
        assert.deepEqual(revealed(await readFile(file, 'latin1'), ALL), [], `written file ${file}`);
    }
    // The echo reached the output, and was hidden there.
    assert.match(result.stdout + result.stderr, /\*\*\*/, `nothing redacted: ${result.stdout}${result.stderr}`);
    return result;
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

const eventEnv = (status: number, encoding: string) => ({
  SERVICE_BASE_URL: echoBaseUrl(service, status, encoding),
  SERVICE_INGEST_TOKEN: TOKEN,
  SERVICE_HMAC_SECRET: HMAC,
});
const loginEnv = (status: number, encoding: string) => ({
  SERVICE_BASE_URL: echoBaseUrl(service, status, encoding),
  SERVICE_EMAIL: EMAIL,
  SERVICE_PASSWORD: PASSWORD,
});

/** A generic config file with one entry; returns its path among the inputs. */
async function entryFile(home: string, entry: Record<string, unknown>): Promise<string[]> {
  return [await placeFile(home, 'mcp.json', JSON.stringify({ mcpServers: { service: entry } }, null, 2))];
}

const remoteEntry = (url: string) => ({
  type: 'http',
  url,
  headers: { 'X-Service-Email': EMAIL, 'X-Service-Password': PASSWORD },
});

/** An mcp-remote entry with literal --header values (doctor connects to the URL itself). */
const proxyEntry = (url: string) => ({
  command: 'npx',
  args: [
    '-y',
    'mcp-remote',
    url,
    '--header',
    `X-Service-Email: ${EMAIL}`,
    '--header',
    `X-Service-Password: ${PASSWORD}`,
  ],
});

/** A local server that prints its environment and arguments on stderr, encoded, and exits. */
async function localEntry(home: string, encoding: string): Promise<string[]> {
  const script = [
    `const encode = ${ENCODINGS[encoding]!.toString()};`,
    "const values = [process.env.SERVICE_PASSWORD, process.argv[process.argv.indexOf('--pass') + 1], `${process.env.SERVICE_EMAIL}:${process.env.SERVICE_PASSWORD}`];",
    "process.stderr.write(`error: cannot start with ${values.map(encode).join(' ')}\\n`);",
    'process.exit(1);',
  ].join('\n');
  const server = await placeFile(home, 'echo-server.mjs', script);
  const entry = {
    command: process.execPath,
    args: [server, '--pass', ARG_SECRET],
    env: { SERVICE_EMAIL: EMAIL, SERVICE_PASSWORD: PASSWORD },
  };
  return [server, ...(await entryFile(home, entry))];
}

interface Row {
  path: string;
  run(encoding: string): Promise<RunResult>;
}

const ROWS: Row[] = [
  {
    path: 'event send: 401 on stderr',
    run: (enc) => runChecked(['event', 'send', '--title', 'x', '--retries', '0'], eventEnv(401, enc)),
  },
  {
    path: 'event send --json: 401 "error" and "response"',
    run: (enc) => runChecked(['event', 'send', '--title', 'x', '--json', '--retries', '0'], eventEnv(401, enc)),
  },
  {
    path: 'event send --json: 200 "response"',
    run: (enc) => runChecked(['event', 'send', '--title', 'x', '--json'], eventEnv(200, enc)),
  },
  {
    path: 'event send --ndjson --json: 400 per line, --failed-out file',
    run: (enc) =>
      runChecked(
        ['event', 'send', '--ndjson', 'in.ndjson', '--json', '--failed-out', 'failed.ndjson'],
        eventEnv(400, enc),
        async (home) => [await placeFile(home, 'in.ndjson', `${eventLines(2).join('\n')}\n`)],
      ),
  },
  {
    path: 'event send --ndjson: 400 per line on stderr',
    run: (enc) =>
      runChecked(['event', 'send', '--ndjson', 'in.ndjson'], eventEnv(400, enc), async (home) => [
        await placeFile(home, 'in.ndjson', `${eventLines(2).join('\n')}\n`),
      ]),
  },
  { path: 'login: 400 on stderr', run: (enc) => runChecked(['login'], loginEnv(400, enc)) },
  { path: 'login: 200 without access_token', run: (enc) => runChecked(['login', '--json'], loginEnv(200, enc)) },
  {
    path: 'mcp doctor remote: 401 echo',
    run: (enc) =>
      runChecked(['mcp', 'doctor', '--config', 'mcp.json', '--trust-project'], {}, (home) =>
        entryFile(home, remoteEntry(mcp.url('reject', enc))),
      ),
  },
  {
    path: 'mcp doctor remote --json: 401 echo',
    run: (enc) =>
      runChecked(['mcp', 'doctor', '--config', 'mcp.json', '--trust-project', '--json'], {}, (home) =>
        entryFile(home, remoteEntry(mcp.url('reject', enc))),
      ),
  },
  {
    path: 'mcp doctor remote: server name echo',
    run: (enc) =>
      runChecked(['mcp', 'doctor', '--config', 'mcp.json', '--trust-project', '--json'], {}, (home) =>
        entryFile(home, remoteEntry(mcp.url('answer', enc))),
      ),
  },
  {
    path: 'mcp doctor proxy: 401 echo of --header values',
    run: (enc) =>
      runChecked(['mcp', 'doctor', '--config', 'mcp.json', '--trust-project'], {}, (home) =>
        entryFile(home, proxyEntry(mcp.url('reject', enc))),
      ),
  },
  {
    path: 'mcp doctor local: stderr echo',
    run: (enc) =>
      runChecked(['mcp', 'doctor', '--config', 'mcp.json', '--trust-project'], {}, (home) => localEntry(home, enc)),
  },
  {
    path: 'mcp doctor local --json: stderr echo',
    run: (enc) =>
      runChecked(['mcp', 'doctor', '--config', 'mcp.json', '--trust-project', '--json'], {}, (home) =>
        localEntry(home, enc),
      ),
  },
];

describe('every output path × every encoding: no secret shown', { concurrency: 4 }, () => {
  for (const row of ROWS) {
    for (const encoding of ENCODING_NAMES) it(`${row.path} — ${encoding}`, async () => void (await row.run(encoding)));
  }
});

/** ~/.cursor/mcp.json with another server's secrets written in `encoding` and a `service` entry unlike ours. */
async function cursorFile(home: string, encoding: string): Promise<string[]> {
  const encode = ENCODINGS[encoding]!;
  const text = [
    '{',
    '  "mcpServers": {',
    '    "service": { "url": "https://old.example.com/mcp" },',
    '    "other": {',
    `      "args": ["--pass","${encode(OLD_ARG)}"],`,
    '      "command": "other-server",',
    `      "env": { "OTHER_PASSWORD": "${encode(DOLLAR)}" }`,
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');
  return [await placeFile(home, '.cursor/mcp.json', text)];
}

const INSTALL_ENV = {
  SERVICE_BASE_URL: 'https://acme.example.com/api',
  SERVICE_EMAIL: EMAIL,
  SERVICE_PASSWORD: PASSWORD,
};
const INSTALL = ['mcp', 'install', '--client', 'cursor', '--secrets', 'literal'];

describe('mcp install diffs × the encodings a JSON file can hold: no secret shown', { concurrency: 4 }, () => {
  for (const encoding of ['plain', 'json \\/', 'json \\u lower', 'json \\u upper']) {
    it(`conflict diff on stderr — ${encoding}`, async () => {
      const result = await runChecked(INSTALL, INSTALL_ENV, (home) => cursorFile(home, encoding));
      assert.equal(result.code, 7, result.stderr);
      assert.match(
        result.stderr,
        /^ {7}"args": \["--pass","\*\*\*"\],$/m,
        'the flag stays readable, its value is hidden',
      );
    });
    it(`--dry-run diff on stdout — ${encoding}`, async () => {
      const result = await runChecked([...INSTALL, '--dry-run', '--force'], INSTALL_ENV, (home) =>
        cursorFile(home, encoding),
      );
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^\+ {8}"SERVICE_PASSWORD": "\*\*\*",$/m);
    });
  }
});

/** Runs svcctl with umask 000 (this process's, put back after): no folder may rely on the umask to be private. */
async function runUnderUmask(args: string[], home: string, env: Record<string, string>): Promise<number | null> {
  const previous = process.umask(0o000);
  try {
    const result = await runCli(args, { home, env });
    assert.equal(result.code, 0, result.stderr);
    return result.code;
  } finally {
    process.umask(previous);
  }
}

const modeOf = async (path: string): Promise<number> => (await stat(path)).mode & 0o777;

describe('umask 000: folders made for files with literal secrets are 0700', {
  skip: process.platform === 'win32',
}, () => {
  it('mcp install --secrets literal (Cursor), Claude Desktop (literal values), login --save', async () => {
    const dev = await startDev(['--user', `${EMAIL}:${PASSWORD}`]);
    const home = await tempDir('svcctl-umask-');
    try {
      assert.equal(await runUnderUmask(INSTALL, home, INSTALL_ENV), 0);
      assert.equal(await runUnderUmask(['mcp', 'install', '--client', 'claude-desktop'], home, INSTALL_ENV), 0);
      assert.equal(
        await runUnderUmask(['login', '--save'], home, { ...INSTALL_ENV, SERVICE_BASE_URL: dev.ready.base_url }),
        0,
      );
      for (const [folder, file] of [
        ['.cursor', 'mcp.json'],
        ['.config/Claude', 'claude_desktop_config.json'],
        ['.config/svcctl', 'credentials.json'],
      ] as const) {
        assert.equal(await modeOf(join(home, folder)), 0o700, `${folder} is not 0700`);
        assert.equal(await modeOf(join(home, folder, file)), 0o600, `${folder}/${file} is not 0600`);
      }
      assert.equal(await modeOf(join(home, '.config')), 0o700, 'a parent created on the way is private too');
    } finally {
      await dev.stop();
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe('svcctl dev: the JWT signature text is compared, not its decoded bytes', () => {
  it('a signature with an extra = or !, or another last character decoding to the same bytes, is rejected', async () => {
    const dev = await startDev(['--user', `${EMAIL}:${PASSWORD}`]);
    try {
      const login = await fetch(`${dev.ready.base_url}/v1/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
      });
      const { access_token: token } = (await login.json()) as { access_token: string };
      const userinfo = (jwt: string) =>
        fetch(new URL('/userinfo', dev.ready.base_url), { headers: { authorization: `Bearer ${jwt}` } }).then(
          (answer) => answer.status,
        );
      assert.equal(await userinfo(token), 200);
      const [signed, signature] = [token.slice(0, token.lastIndexOf('.') + 1), token.slice(token.lastIndexOf('.') + 1)];
      // 32 bytes are 43 base64url characters: the last one carries 2 unused bits, so flipping its lowest bit decodes the same.
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const last = alphabet[alphabet.indexOf(signature.at(-1)!) ^ 1]!;
      const variants = [
        `${signature}=`,
        `${signature.slice(0, 10)}!${signature.slice(10)}`,
        `${signature.slice(0, -1)}${last}`,
      ];
      for (const variant of variants) {
        assert.ok(
          Buffer.from(variant, 'base64url').equals(Buffer.from(signature, 'base64url')),
          `${variant} should decode to the same bytes`,
        );
        assert.equal(await userinfo(`${signed}${variant}`), 401, variant);
      }
    } finally {
      await dev.stop();
    }
  });
});
