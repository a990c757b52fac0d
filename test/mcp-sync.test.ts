/**
 * `svcctl mcp sync --file`, in-process on real files in a temp HOME: the declared entries land in every named
 * client's file, a second run changes no byte, entries svcctl did not write stay byte for byte, --check and
 * --dry-run write nothing, and a bad file is one exit-2 error naming its line and key.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { placeFile, runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const TEAM = `clients = ["cursor", "vscode", "codex"]
scope = "user"

[[server]]
name = "ops"
base_url = "https://acme.example.com/api"
mode = "remote"
auth = "password"

[[server]]
name = "docs"
base_url = "https://docs.example.com/api"
`;

async function setUp(declaration = TEAM): Promise<{ home: string; file: string }> {
  const home = await tempDir('svcctl-sync-');
  const file = await placeFile(home, 'team/svcctl-mcp.toml', declaration);
  return { home, file };
}

// Approved with --yes: approval itself is test/mcp-sync-approval.test.ts.
const sync = (home: string, args: string[]) => runCli(['mcp', 'sync', ...args, '--yes'], { home, cwd: home });

const files = (home: string) => ({
  cursor: join(home, '.cursor', 'mcp.json'),
  vscode: join(home, '.config', 'Code', 'User', 'mcp.json'),
  codex: join(home, '.codex', 'config.toml'),
});

const bytesOf = async (paths: string[]): Promise<string[]> =>
  Promise.all(paths.map((path) => readFile(path, 'utf8').catch(() => '<absent>')));

describe('mcp sync --file', () => {
  it('adds the declared entries to every client, and a second run changes no byte and says so', async () => {
    const { home, file } = await setUp();
    const first = await sync(home, ['--file', file]);
    assert.equal(first.code, 0, first.stderr);
    const paths = files(home);
    const cursor = parseJsonc(await readFile(paths.cursor, 'utf8'));
    assert.deepEqual(Object.keys(cursor.mcpServers), ['ops', 'docs']);
    assert.equal(cursor.mcpServers.ops.url, 'https://acme.example.com/mcp');
    assert.equal(cursor.mcpServers.docs.env.SERVICE_BASE_URL, 'https://docs.example.com/api');
    assert.deepEqual(Object.keys(parseJsonc(await readFile(paths.vscode, 'utf8')).servers), ['ops', 'docs']);
    assert.deepEqual(Object.keys(parseToml(await readFile(paths.codex, 'utf8')).mcp_servers as object), [
      'ops',
      'docs',
    ]);
    const written = await bytesOf(Object.values(paths));
    const times = await Promise.all(Object.values(paths).map(async (path) => (await stat(path)).mtimeMs));

    const second = await sync(home, ['--file', file]);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /nothing to change/);
    assert.deepEqual(await bytesOf(Object.values(paths)), written);
    assert.deepEqual(await Promise.all(Object.values(paths).map(async (path) => (await stat(path)).mtimeMs)), times);
    const checked = await sync(home, ['--file', file, '--check']);
    assert.equal(checked.code, 0, checked.stderr);
  });

  it('updates what differs and removes what it wrote and the file no longer declares; others stay untouched', async () => {
    const { home, file } = await setUp();
    const paths = files(home);
    const mine = '{\n  // my own\n  "mcpServers": {\n    "mine": { "command": "my-server" }\n  }\n}\n';
    await placeFile(home, '.cursor/mcp.json', mine);
    assert.equal((await sync(home, ['--file', file])).code, 0);
    await writeFile(file, TEAM.replace('mode = "remote"', 'mode = "proxy"').split('[[server]]\nname = "docs"')[0]!);
    const json = await runCli(['--json', 'mcp', 'sync', '--file', file, '--yes'], { home, cwd: home });
    assert.equal(json.code, 0, json.stderr);
    const report = JSON.parse(json.stdout);
    const cursorReport = report.clients.find((c: { client: string }) => c.client === 'cursor');
    assert.deepEqual(
      cursorReport.entries.map((e: { name: string; status: string }) => [e.name, e.status]),
      [
        ['ops', 'updated'],
        ['docs', 'removed'],
      ],
    );
    const text = await readFile(paths.cursor, 'utf8');
    assert.ok(text.startsWith('{\n  // my own\n  "mcpServers": {\n    "mine": { "command": "my-server" }'), text);
    const servers = parseJsonc(text).mcpServers;
    assert.deepEqual(Object.keys(servers), ['mine', 'ops']);
    assert.ok(Array.isArray(servers.ops.args) && servers.ops.args.includes('mcp-remote'), JSON.stringify(servers.ops));
    assert.equal(await readFile(`${paths.cursor}.bak`, 'utf8').then((t) => t.includes('"docs"')), true);
  });

  it('never changes an entry of a declared name that svcctl did not write: reported, exit 7, the rest written', async () => {
    const { home, file } = await setUp();
    const paths = files(home);
    const theirs = '{\n  "mcpServers": {\n    "ops": { "url": "https://elsewhere.example/mcp" }\n  }\n}\n';
    await placeFile(home, '.cursor/mcp.json', theirs);
    const result = await runCli(['--json', 'mcp', 'sync', '--file', file, '--yes'], { home, cwd: home });
    assert.equal(result.code, 7, result.stderr);
    assert.match(result.stderr, /Cursor \(user scope\): 'ops' not synced: .*svcctl did not write it/);
    const servers = parseJsonc(await readFile(paths.cursor, 'utf8')).mcpServers;
    assert.deepEqual(servers.ops, { url: 'https://elsewhere.example/mcp' });
    assert.ok(servers.docs, 'the other declared entry is added');
    const cursor = JSON.parse(result.stdout).clients.find((c: { client: string }) => c.client === 'cursor');
    assert.equal(cursor.entries[0].status, 'failed');
    assert.match(cursor.entries[0].reason, /did not write/);
    // A removal never reaches an entry svcctl did not write either.
    await writeFile(file, 'clients = ["cursor"]\n');
    const emptied = await sync(home, ['--file', file]);
    assert.equal(emptied.code, 0, emptied.stderr);
    assert.deepEqual(Object.keys(parseJsonc(await readFile(paths.cursor, 'utf8')).mcpServers), ['ops']);
  });

  it('an entry svcctl wrote and someone changed since is left and reported, not removed', async () => {
    const { home, file } = await setUp(
      'clients = ["cursor"]\n[[server]]\nname = "ops"\nbase_url = "https://a.example/api"\n',
    );
    const path = files(home).cursor;
    assert.equal((await sync(home, ['--file', file])).code, 0);
    const edited = (await readFile(path, 'utf8')).replace('https://a.example/api', 'https://mine.example/api');
    await writeFile(path, edited);
    await writeFile(file, 'clients = ["cursor"]\n');
    const result = await sync(home, ['--file', file]);
    assert.equal(result.code, 7, result.stderr);
    assert.match(result.stderr, /'ops' not synced: svcctl wrote it, but it was changed since/);
    assert.equal(await readFile(path, 'utf8'), edited);
  });

  it('--check and --dry-run write nothing; --check exits 8 on drift, --dry-run shows the diff', async () => {
    const { home, file } = await setUp();
    const checked = await sync(home, ['--file', file, '--check']);
    assert.equal(checked.code, 8, checked.stderr);
    assert.match(checked.stderr, /would add 'ops', would add 'docs'/);
    const dry = await sync(home, ['--file', file, '--dry-run']);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^\+\+\+ .*\.cursor\/mcp\.json\tafter svcctl$/m);
    assert.match(dry.stderr, /dry run: nothing was written/);
    const report = await runCli(['--json', 'mcp', 'sync', '--file', file, '--check'], { home, cwd: home });
    assert.equal(report.code, 8, report.stderr);
    const cursor = JSON.parse(report.stdout).clients.find((c: { client: string }) => c.client === 'cursor');
    assert.equal(cursor.status, 'changed');
    assert.match(cursor.diff, /^\+ {4}"ops": \{$/m);
    assert.deepEqual(await bytesOf(Object.values(files(home))), ['<absent>', '<absent>', '<absent>']);
  });

  it('scope "project": the folder holding the file is the project', async () => {
    const { home, file } = await setUp(
      'clients = ["cursor", "claude-code"]\nscope = "project"\n[[server]]\nname = "ops"\nbase_url = "https://a.example/api"\n',
    );
    const result = await sync(home, ['--file', file]);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(parseJsonc(await readFile(join(home, 'team', '.cursor', 'mcp.json'), 'utf8')).mcpServers.ops);
    assert.ok(JSON.parse(await readFile(join(home, 'team', '.mcp.json'), 'utf8')).mcpServers.ops);
  });

  it('deployment = NAME takes the saved deployment; an unknown name is exit 2 at its line', async () => {
    const { home, file } = await setUp();
    assert.equal((await runCli(['deployment', 'add', 'prod', 'https://prod.acme.example/api'], { home })).code, 0);
    await writeFile(file, 'clients = ["cursor"]\n\n[[server]]\nname = "ops"\ndeployment = "prod"\n');
    assert.equal((await sync(home, ['--file', file])).code, 0);
    const ops = parseJsonc(await readFile(files(home).cursor, 'utf8')).mcpServers.ops;
    assert.equal(ops.env.SERVICE_BASE_URL, 'https://prod.acme.example/api');
    await writeFile(file, 'clients = ["cursor"]\n\n[[server]]\nname = "ops"\ndeployment = "staging"\n');
    const unknown = await sync(home, ['--file', file]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /svcctl-mcp\.toml:5: 'deployment' names no saved deployment 'staging'/);
    // What a member whose login --save saved it by its host does next: save it under the team's name.
    assert.match(
      unknown.stderr,
      /hint: save it under this name: svcctl deployment add staging <.*\(saved here: prod\)/,
    );
  });

  it('writes no literal secret: a client that reads no variables gets the token helper or is reported', async () => {
    const { home, file } = await setUp(
      'clients = ["claude-desktop", "cursor"]\n[[server]]\nname = "ops"\nbase_url = "https://a.example/api"\nmode = "proxy"\n',
    );
    const desktop = join(home, '.config', 'Claude', 'claude_desktop_config.json');
    const env = { SERVICE_EMAIL: 'me@acme.example', SERVICE_PASSWORD: 'pw-Secret-123' };
    const result = await runCli(['mcp', 'sync', '--file', file, '--yes'], { home, cwd: home, env });
    assert.equal(result.code, 7, result.stderr);
    assert.match(
      result.stderr,
      /Claude Desktop \(user scope\): 'ops' not synced: Claude Desktop reads no environment variables/,
    );
    assert.equal(await readFile(desktop, 'utf8').catch(() => '<absent>'), '<absent>');
    assert.ok(!(await readFile(files(home).cursor, 'utf8')).includes('pw-Secret-123'));
    await writeFile(file, `${await readFile(file, 'utf8')}auth = "bearer"\ntoken = "helper"\n`);
    const helper = await runCli(['mcp', 'sync', '--file', file, '--yes'], { home, cwd: home, env });
    assert.equal(helper.code, 0, helper.stderr);
    const entry = JSON.stringify(JSON.parse(await readFile(desktop, 'utf8')).mcpServers.ops);
    assert.match(entry, /"mcp","proxy"/);
    assert.ok(!entry.includes('pw-Secret-123'), entry);
  });

  it('a link out of the project is refused, its target untouched, the other clients written', async () => {
    const { home, file } = await setUp(
      'clients = ["cursor", "vscode"]\nscope = "project"\n[[server]]\nname = "ops"\nbase_url = "https://a.example/api"\n',
    );
    const outside = await placeFile(home, 'elsewhere/mcp.json', '{}\n');
    await mkdir(join(home, 'team', '.cursor'), { recursive: true });
    await symlink(outside, join(home, 'team', '.cursor', 'mcp.json'));
    const result = await sync(home, ['--file', file]);
    assert.equal(result.code, 7, result.stderr);
    assert.match(result.stderr, /Cursor \(project scope\): not synced: /);
    assert.equal(await readFile(outside, 'utf8'), '{}\n');
    assert.ok(parseJsonc(await readFile(join(home, 'team', '.vscode', 'mcp.json'), 'utf8')).servers.ops);
  });

  it('a bad file is one exit-2 error naming the line and the key', async () => {
    const cases: [string, RegExp][] = [
      [
        'clients = ["cursor"]\n[[server]]\nname = "ops"\nmode = "far"\n',
        /:4: 'mode' must be one of "local", "remote", "proxy"/,
      ],
      [
        'clients = ["cursor"]\n[[server]]\nname = "a"\n[[server]]\nname = "b"\ncolour = "red"\n',
        /:6: 'colour' is not a key of \[\[server\]\]/,
      ],
      ['clients = ["cursor", "nope"]\n', /:1: 'clients' names an unknown client 'nope'/],
      ['scope = "user"\n', /:1: 'clients' is missing/],
      ['clients = ["cursor"]\n[[server]]\nname = "ops"\nsecrets = "literal"\n', /:4: 'secrets' cannot be "literal"/],
      ['clients = ["cursor"]\n[[server]]\nname = "x"\n[[server]]\nname = "x"\n', /:5: 'name' 'x' is declared twice/],
      ['clients = ["cursor"\n', /svcctl-mcp\.toml:2:1: not valid TOML/],
      ['clients = ["windsurf"]\nscope = "project"\n', /:1: 'clients' names Windsurf, which has no project scope/],
    ];
    for (const [text, expected] of cases) {
      const { home, file } = await setUp(text);
      const result = await sync(home, ['--file', file]);
      assert.equal(result.code, 2, `${text}\n${result.stderr}`);
      assert.match(result.stderr, expected);
      assert.equal(
        result.stderr
          .trim()
          .split('\n')
          .filter((line) => line.startsWith('error:')).length,
        1,
      );
    }
  });
});
