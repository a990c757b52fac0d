/**
 * Over random strings (any code point, mixed with line feeds, controls, bidi controls and U+2028/U+2029), fed
 * through the real commands: what svcctl prints has exactly the lines it prints for a plain word in the same
 * place, with the string shown escaped as docs/security.md says ("Text others wrote"), and `--json` keeps it as
 * it is. The expected text is the plain word's output with the word replaced by that escaping, written here
 * from the rule, not taken from svcctl. Columns are padded to the widest cell, so runs of spaces count as one.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { runCli } from './helpers/cli.js';
import { runAtTerminal } from './helpers/fake-terminal.js';
import { proxyLogOfInitialize, startForeignMcpServer, type ForeignMcpServer } from './helpers/foreign-mcp-server.js';
import { tempDir } from './helpers/temp-dirs.js';

const DANGEROUS = [
  '\n',
  '\r\n',
  '\r',
  '\t',
  '\u0000',
  '\u0007',
  '\u001b[2J',
  '\u001b]0;t\u0007',
  '\u007f',
  '\u0085',
  '\u009b31m',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
  '\u2028',
  '\u2029',
  '\n✓ all 99 checks passed',
  '\nerror: forged',
];

const foreignText = fc
  .array(
    fc.oneof(
      fc.constantFrom(...DANGEROUS),
      fc.string({ unit: 'binary', maxLength: 6 }),
      fc.string({ unit: 'binary-ascii', maxLength: 6 }),
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(''));

const RAW = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** The rule of docs/security.md: \n, \r and \t as in JSON, every other control and bidi character as \uXXXX. */
function shownAs(text: string): string {
  const short: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  return [...text]
    .map((ch) => short[ch] ?? (RAW.test(ch) ? `\\u${ch.codePointAt(0)!.toString(16).padStart(4, '0')}` : ch))
    .join('');
}

const oneSpace = (text: string): string => text.replace(/ {2,}/g, ' ');
const expected = (plain: string, word: string, text: string): string => oneSpace(plain.split(word).join(shownAs(text)));

const RUNS = { numRuns: 40 };

describe("a project entry's name", () => {
  const WORD = 'plainname';
  let home: string;
  let dir: string;
  let plain: { list: string; status: string };

  const write = (name: string): Promise<void> =>
    writeFile(
      join(dir, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          [name]: {
            type: 'http',
            url: 'https://example.invalid/mcp',
            headers: { 'X-Service-Password': '${SERVICE_PASSWORD}' },
          },
        },
      }),
    );
  const run = async (): Promise<{ list: string; status: string; json: string }> => {
    const [list, status, json] = await Promise.all([
      runCli(['mcp', 'list'], { home, cwd: dir }),
      runCli(['status'], { home, cwd: dir }),
      runCli(['mcp', 'list', '--json'], { home, cwd: dir }),
    ]);
    for (const result of [list, status, json]) assert.equal(result.code, 0, result.stderr);
    for (const result of [list, status, json]) assert.equal(result.stderr, '');
    return { list: list.stdout, status: status.stdout, json: json.stdout };
  };

  before(async () => {
    [home, dir] = await Promise.all([tempDir(), tempDir()]);
    await write(WORD);
    plain = await run();
    assert.equal(plain.list.split('\n').length, 3, plain.list);
  });

  it('mcp list and status: the lines they print for a plain name; --json: the name itself', async () => {
    await fc.assert(
      fc.asyncProperty(foreignText, async (name) => {
        await write(name);
        const shown = await run();
        assert.equal(oneSpace(shown.list), expected(plain.list, WORD, name));
        assert.equal(oneSpace(shown.status), expected(plain.status, WORD, name));
        assert.equal((JSON.parse(shown.json) as Array<{ name: string }>)[0]?.name, name);
      }),
      RUNS,
    );
  });
});

describe("an MCP server's name, version and tool names in mcp doctor", () => {
  const WORDS = { name: 'plainname', version: 'plainversion', tools: ['plaintool', 'othertool'] };
  let server: ForeignMcpServer;
  let home: string;
  let config: string;
  let plain: string;
  const doctor = (): Promise<string> =>
    runCli(['mcp', 'doctor', '--config', config, '--trust-project', '--timeout', '5'], { home }).then((result) => {
      assert.equal(result.code, 0, result.stdout + result.stderr);
      return result.stdout;
    });

  before(async () => {
    server = await startForeignMcpServer(WORDS);
    home = await tempDir();
    config = join(await tempDir(), 'mcp.json');
    await writeFile(config, JSON.stringify({ mcpServers: { service: { type: 'http', url: server.url } } }));
    plain = await doctor();
  });
  after(() => server.close());

  it('its check lines are the ones doctor prints for plain words', async () => {
    await fc.assert(
      fc.asyncProperty(foreignText, foreignText, foreignText, foreignText, async (name, version, tool, other) => {
        server.words = { name, version, tools: [tool, other] };
        const want = [
          [WORDS.name, name],
          [WORDS.version, version],
          [WORDS.tools[0]!, tool],
          [WORDS.tools[1]!, other],
        ].reduce((text, [word, value]) => text.split(word!).join(shownAs(value!)), plain);
        assert.equal(oneSpace(await doctor()), oneSpace(want));
      }),
      RUNS,
    );
  });
});

describe("a server's protocolVersion in mcp proxy's log", () => {
  let server: ForeignMcpServer;
  let home: string;
  before(async () => {
    server = await startForeignMcpServer({ name: 's', version: '1', tools: [] });
    home = await tempDir();
  });
  after(() => server.close());

  it('each line is one of the proxy', async () => {
    await fc.assert(
      fc.asyncProperty(foreignText, async (version) => {
        server.words = { ...server.words, protocolVersion: version };
        const log = await proxyLogOfInitialize(server.url, home);
        const lines = log.split('\n').slice(0, -1);
        for (const line of lines) {
          assert.match(line, /^svcctl mcp proxy: /);
          assert.doesNotMatch(line, RAW);
        }
        assert.ok(lines.includes(`svcctl mcp proxy: connected to ${server.url} in MCP ${shownAs(version)}`), log);
      }),
      { numRuns: 20 },
    );
  });
});

describe("the trust question about a project's command", () => {
  const quoted = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

  it('is one line, starting with the command as written, cut with the count of the rest', async () => {
    const [home, dir] = await Promise.all([tempDir(), tempDir()]);
    await fc.assert(
      fc.asyncProperty(foreignText, async (script) => {
        await writeFile(
          join(dir, '.mcp.json'),
          JSON.stringify({ mcpServers: { service: { command: 'sh', args: ['-c', script] } } }),
        );
        const run = await runAtTerminal(['mcp', 'doctor', '--client', 'claude-code', '--timeout', '5'], {
          home,
          cwd: dir,
          answers: [[/Run it\?/, 'n\r']],
        });
        assert.equal(run.code, 8, run.screen);
        // The prompt library draws with escape sequences of its own: what comes before it is svcctl's.
        const before = run.screen.slice(0, run.screen.indexOf('? Run it?'));
        const lines = before.split('\n');
        assert.equal(lines.length, 2, before);
        assert.equal(lines[1], '');
        const said =
          /^warning: 'service' in .*\.mcp\.json comes with the project and is not an entry svcctl wrote\. To check it, doctor would start `(.*)` with PATH, HOME and the other basic variables\.$/s.exec(
            lines[0]!,
          );
        assert.ok(said, lines[0]);
        const whole = shownAs(`sh -c ${quoted(script)}`);
        const cut = /… \((\d+) more characters\)$/.exec(said[1]!);
        const start = cut ? said[1]!.slice(0, -cut[0].length) : said[1]!;
        assert.ok(whole.startsWith(start), `${start} is not the start of ${whole}`);
        assert.equal(start.length + Number(cut?.[1] ?? 0), whole.length);
      }),
      RUNS,
    );
  });
});
