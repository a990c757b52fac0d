/**
 * Text svcctl did not write (a project's .mcp.json, an MCP server's answer, a service's 500 body or Location
 * header) reaches the terminal with its control characters shown as \u001b etc.: a terminal escape sequence in it
 * could otherwise fake svcctl's own lines, such as the one before "Run it?". Checked per character, not per byte:
 * UTF-8 of svcctl's own ✓ holds bytes 0x80–0x9f, U+009B (an 8-bit CSI) is two bytes. NO_COLOR is set (cleanEnv).
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { runAtTerminal } from './helpers/fake-terminal.js';
import { proxyLogOfInitialize, startForeignMcpServer } from './helpers/foreign-mcp-server.js';
import { tempDir } from './helpers/temp-dirs.js';

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** An OSC that retitles the window, a clear screen, hidden text and an 8-bit CSI. */
const HOSTILE = '\u001b]0;pwned\u0007\u001b[2J\u001b[8mhidden\u009b31m';
const SHOWN = '\\u001b]0;pwned\\u0007\\u001b[2J\\u001b[8mhidden\\u009b31m';

function assertNoControls(...texts: string[]): void {
  for (const text of texts) {
    const found = CONTROL.exec(text);
    assert.equal(
      found,
      null,
      `U+${found?.[0].charCodeAt(0).toString(16).padStart(4, '0')} reached: ${JSON.stringify(text)}`,
    );
  }
}

const closers: Array<() => void> = [];
after(() => {
  for (const close of closers) close();
});

async function listening(server: Server | ReturnType<typeof createNetServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.close());
  return (server.address() as AddressInfo).port;
}

/** An MCP server whose name, version and tool name carry HOSTILE. */
async function hostileMcpServer(): Promise<string> {
  const server = await startForeignMcpServer({
    name: `evil${HOSTILE}`,
    version: `1${HOSTILE}`,
    tools: [`tool${HOSTILE}`],
  });
  closers.push(() => void server.close());
  return server.url;
}

/** Answers every request with a redirect whose Location holds raw 0x9b bytes (latin1: U+009B to a client). */
async function rawLocationServer(): Promise<string> {
  const server = createNetServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () =>
      socket.end(
        Buffer.from(
          'HTTP/1.1 302 Found\r\nLocation: https://x.example/\x9b2J\x9b31mred\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
          'latin1',
        ),
      ),
    );
  });
  return `http://127.0.0.1:${await listening(server)}/api`;
}

async function projectWith(entry: Record<string, unknown>): Promise<{ home: string; dir: string }> {
  const [home, dir] = await Promise.all([tempDir('svcctl-controls-home-'), tempDir('svcctl-controls-proj-')]);
  await writeFile(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { service: entry } }));
  return { home, dir };
}

describe("a project's .mcp.json", () => {
  const entry = { command: `node${HOSTILE}`, args: [`-e${HOSTILE}`] };

  it("doctor's line before the trust question shows its command's control characters as \\uXXXX", async () => {
    const { home, dir } = await projectWith(entry);
    const run = await runAtTerminal(['mcp', 'doctor', '--client', 'claude-code', '--timeout', '5'], {
      home,
      cwd: dir,
      answers: [[/Run it\?/, 'n\r']],
    });
    assert.equal(run.code, 8, run.screen);
    // The prompt library draws with escape sequences of its own: the line svcctl wrote is the one checked.
    const warning = run.screen.split('\n').find((line) => line.startsWith('warning:')) ?? '';
    assert.match(warning, /comes with the project/);
    assert.ok(warning.includes(`start \`'node${SHOWN}' '-e${SHOWN}'\``), warning);
    assertNoControls(warning, run.stdout);
  });

  it("with colour on, svcctl's own yellow 'warning:' stays coloured; the entry's escapes do not pass", async () => {
    const { home, dir } = await projectWith(entry);
    const run = await runAtTerminal(['mcp', 'doctor', '--client', 'claude-code', '--timeout', '5'], {
      home,
      cwd: dir,
      env: { NO_COLOR: undefined },
      answers: [[/Run it\?/, 'n\r']],
    });
    const yellow = '\u001b[33mwarning:\u001b[39m ';
    const warning = run.screen.split('\n').find((line) => line.startsWith(yellow)) ?? '';
    assert.match(warning, /comes with the project/, run.screen);
    assertNoControls(warning.slice(yellow.length));
  });

  it("doctor without a terminal: the trust check's detail on stdout and stderr", async () => {
    const { home, dir } = await projectWith(entry);
    const result = await runCli(['mcp', 'doctor', '--client', 'claude-code', '--timeout', '5'], { home, cwd: dir });
    assert.equal(result.code, 8, result.stdout + result.stderr);
    assert.ok(result.stdout.includes(`'node${SHOWN}'`), result.stdout);
    assertNoControls(result.stdout, result.stderr);
  });

  it('mcp list shows its URL as \\uXXXX, the columns still lined up', async () => {
    const { home, dir } = await projectWith({
      type: 'http',
      url: `https://example.invalid/mcp${HOSTILE}`,
      headers: { 'X-Service-Password': '${SERVICE_PASSWORD}' },
    });
    const result = await runCli(['mcp', 'list'], { home, cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    assert.ok(result.stdout.includes(`https://example.invalid/mcp${SHOWN}`), result.stdout);
    assertNoControls(result.stdout, result.stderr);
    const [head, row] = result.stdout.split('\n');
    assert.equal(row!.indexOf(join(dir, '.mcp.json')), head!.indexOf('FILE'));
  });
});

describe("an MCP server's answer in mcp doctor", () => {
  async function doctor(json: boolean) {
    const [home, elsewhere] = await Promise.all([tempDir(), tempDir()]);
    const config = join(elsewhere, 'mcp.json');
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { service: { type: 'http', url: await hostileMcpServer() } } }),
    );
    // A hand-written file outside the user's config: trusted by the flag, as a user would.
    return runCli(
      ['mcp', 'doctor', '--config', config, '--trust-project', '--timeout', '5', ...(json ? ['--json'] : [])],
      {
        home,
      },
    );
  }

  it('its name, version and tool names are shown as \\uXXXX', async () => {
    const result = await doctor(false);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.ok(result.stdout.includes(`(evil${SHOWN} 1${SHOWN})`), result.stdout);
    assert.ok(result.stdout.includes(`1 tool: tool${SHOWN}`), result.stdout);
    assertNoControls(result.stdout, result.stderr);
  });

  it('--json: C1 and DEL escaped as JSON escapes too, so the value is the one the server sent', async () => {
    const result = await doctor(true);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assertNoControls(result.stdout, result.stderr);
    const report = JSON.parse(result.stdout) as { checks: Array<{ name: string; detail: string }> };
    const tools = report.checks.find((check) => check.name === 'tools');
    assert.equal(tools?.detail, `1 tool: tool${HOSTILE}`);
  });
});

describe("a service's answer", () => {
  it("mcp proxy's log line of a 500 answer shows its body as \\uXXXX", async () => {
    const server = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(500, { 'content-type': 'text/plain' }).end(`boom ${HOSTILE}`));
    });
    const url = `http://127.0.0.1:${await listening(server)}/mcp`;
    const said = await proxyLogOfInitialize(url, await tempDir());
    assert.ok(said.includes(`boom ${SHOWN}`), said);
    assertNoControls(said);
  });

  it('login: an access_token with control characters is refused, not printed', async () => {
    const server = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ access_token: `a.b.c${HOSTILE}` })),
      );
    });
    const result = await runCli(['login'], {
      env: {
        SERVICE_BASE_URL: `http://127.0.0.1:${await listening(server)}/api`,
        SERVICE_EMAIL: 'a@example.com',
        SERVICE_PASSWORD: 'controls-test-pw',
      },
    });
    assert.equal(result.code, 6, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /has no access_token/);
    assertNoControls(result.stderr);
  });

  // The exits of the README table: login does not follow a redirect with a password (6), event send is refused (5).
  for (const [command, args, env, exit] of [
    ['login', ['login'], { SERVICE_EMAIL: 'a@example.com', SERVICE_PASSWORD: 'controls-test-pw' }, 6],
    ['event send', ['event', 'send', '--title', 't'], { SERVICE_INGEST_TOKEN: 'tok', SERVICE_HMAC_SECRET: 'hmac' }, 5],
  ] as const) {
    it(`${command}: a redirect's Location with U+009B (an 8-bit CSI) is shown as \\u009b`, async () => {
      const result = await runCli([...args], { env: { ...env, SERVICE_BASE_URL: await rawLocationServer() } });
      assert.equal(result.code, exit, `${command}: ${result.stderr}`);
      assert.ok(result.stderr.includes('https://x.example/\\u009b2J\\u009b31mred'), result.stderr);
      assertNoControls(result.stdout, result.stderr);
    });
  }
});
