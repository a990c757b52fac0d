/**
 * `svcctl mcp install | uninstall` through the built CLI, on real users' file
 * shapes in a temp HOME: everything outside our entry stays byte-identical.
 */
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { diffLines } from 'diff';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { runCli, placeFile } from './helpers/cli.js';
import { changedRegion, fixture, FIXTURES } from './helpers/mcp-files.js';
import { tempDir } from './helpers/temp-dirs.js';

const BASE = 'https://acme.example.com/api';
const CREDS = { SERVICE_EMAIL: 'me@acme.example', SERVICE_PASSWORD: 'pw-Secret-123', SERVICE_BASE_URL: BASE };

let home: string;
before(async () => {
  home = await tempDir('svcctl-mcp-install-');
});
after(async () => {
  await rm(home, { recursive: true, force: true });
});

const place = (path: string, text: string): Promise<string> => placeFile(home, path, text);

const run = (args: string[], env: Record<string, string> = CREDS, cwd = home) =>
  runCli(['mcp', ...args], { home, env, cwd });

describe('mcp install / uninstall keep the rest of the file byte-identical', () => {
  it('Claude Desktop (literal secrets): other servers and top-level keys untouched, file 0600, .bak = old file', async () => {
    const original = await fixture('claude-desktop-config.json');
    const file = await place('.config/Claude/claude_desktop_config.json', original);
    await chmod(file, 0o644);
    const result = await run(['install', '--client', 'claude-desktop']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /added 'service'/);
    assert.match(result.stderr, /0600/);
    assert.ok(!result.stderr.includes(CREDS.SERVICE_PASSWORD) && !result.stdout.includes(CREDS.SERVICE_PASSWORD));
    const installed = await readFile(file, 'utf8');
    const { removed, inserted } = changedRegion(original, installed);
    assert.equal(removed, '');
    assert.ok(inserted.startsWith(',\n    "service": {'), inserted);
    const parsed = JSON.parse(installed);
    assert.deepEqual(parsed.preferences, { menuBarEnabled: true, quickEntryShortcut: 'double-tap-option' });
    assert.equal(parsed.globalShortcut, 'Alt+Space');
    assert.equal(parsed.mcpServers.service.env.SERVICE_PASSWORD, CREDS.SERVICE_PASSWORD);
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.equal(await readFile(`${file}.bak`, 'utf8'), original);

    const removedRun = await run(['uninstall', '--client', 'claude-desktop']);
    assert.equal(removedRun.code, 0, removedRun.stderr);
    assert.match(removedRun.stderr, /removed 'service'/);
    assert.equal(await readFile(file, 'utf8'), original);
  });

  it('Codex config.toml: our tables appended after the rest, which stays byte-identical; uninstall restores it', async () => {
    const original = await fixture('codex-config.toml');
    const file = await place('.codex/config.toml', original);
    const result = await run(['install', '--client', 'codex']);
    assert.equal(result.code, 0, result.stderr);
    const installed = await readFile(file, 'utf8');
    assert.ok(installed.startsWith(`${original}\n[mcp_servers.service]\n`), installed);
    const parsed = parseToml(installed) as { mcp_servers: Record<string, Record<string, unknown>>; profiles: unknown };
    assert.equal(parsed.mcp_servers.service?.command, 'npx');
    assert.equal((parsed.mcp_servers.other?.env as Record<string, string>).OTHER_TOKEN, 'tok-123');
    const removedRun = await run(['uninstall', '--client', 'codex']);
    assert.equal(removedRun.code, 0, removedRun.stderr);
    assert.equal(await readFile(file, 'utf8'), original);
  });

  it('Zed settings.json with comments and trailing commas: one region inserted, nothing taken out', async () => {
    const original = await fixture('zed-settings.json');
    const file = await place('.config/zed/settings.json', original);
    const result = await run(['install', '--client', 'zed', '--secrets', 'literal']);
    assert.equal(result.code, 0, result.stderr);
    const installed = await readFile(file, 'utf8');
    const { removed, inserted } = changedRegion(original, installed);
    assert.equal(removed, '');
    assert.match(inserted, /"service": \{/);
    assert.ok(installed.includes('  "vim_mode": false, // not yet\n}\n'));
    assert.equal((await run(['uninstall', '--client', 'zed'])).code, 0);
    assert.equal(await readFile(file, 'utf8'), original);
  });

  it('VS Code workspace mcp.json with CRLF: stays CRLF; uninstall restores it', async () => {
    const project = join(home, 'proj');
    const original = (await fixture('vscode-mcp.json')).replace(/\n/g, '\r\n');
    const file = await place('proj/.vscode/mcp.json', original);
    const result = await run(
      ['install', '--client', 'vscode', '--scope', 'project', '--secrets', 'prompt'],
      CREDS,
      project,
    );
    assert.equal(result.code, 0, result.stderr);
    const installed = await readFile(file, 'utf8');
    assert.equal(installed.match(/(?<!\r)\n/g), null, 'every line ends in CRLF');
    const parsed = parseJsonc(installed);
    assert.equal(parsed.servers.github.url, 'https://api.githubcopilot.com/mcp/');
    assert.ok(parsed.servers.service);
    assert.ok(parsed.inputs.length >= 2, 'our inputs were added next to the user’s');
    // Two insertions (the input, the server); no line of the original is changed or removed.
    const parts = diffLines(original, installed);
    assert.deepEqual(
      parts.filter((part) => part.removed),
      [],
    );
    const added = parts.filter((part) => part.added).map((part) => part.value);
    assert.equal(added.length, 2);
    assert.match(added[0] ?? '', /"id": "service-/);
    assert.match(added[1] ?? '', /^ {4}"service": \{\r\n/);
  });

  it('a UTF-8 byte order mark is accepted and kept byte for byte: install, list, uninstall round trip', async () => {
    const bomFixture = join(FIXTURES, 'cursor-mcp-bom.json');
    const original = await readFile(bomFixture);
    assert.deepEqual([...original.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'the fixture starts with a BOM');
    const file = join(home, 'bom', '.cursor', 'mcp.json');
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, original);
    const bomHome = join(home, 'bom');
    const result = await runCli(['mcp', 'install', '--client', 'cursor'], { home: bomHome, env: CREDS });
    assert.equal(result.code, 0, result.stderr);
    const installed = await readFile(file);
    assert.deepEqual([...installed.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'the BOM is still there');
    assert.equal(installed.indexOf(Buffer.from([0xef, 0xbb, 0xbf]), 1), -1, 'and only once');
    const parsed = parseJsonc(installed.subarray(3).toString('utf8'));
    assert.equal(parsed.mcpServers.other.command, 'other-server');
    assert.equal(parsed.mcpServers.service.command, 'npx');
    const { removed } = changedRegion(original.toString('utf8'), installed.toString('utf8'));
    assert.equal(removed, '');
    const again = await runCli(['mcp', 'install', '--client', 'cursor'], { home: bomHome, env: CREDS });
    assert.match(again.stderr, /is unchanged/);
    const listed = await runCli(['--json', 'mcp', 'list'], { home: bomHome, env: CREDS });
    assert.equal(listed.code, 0, listed.stderr);
    assert.ok(
      JSON.parse(listed.stdout).some(
        (entry: { file: string; name: string }) => entry.file === file && entry.name === 'service',
      ),
    );
    const removedRun = await runCli(['mcp', 'uninstall', '--client', 'cursor'], { home: bomHome, env: CREDS });
    assert.equal(removedRun.code, 0, removedRun.stderr);
    assert.deepEqual(await readFile(file), original, 'uninstall gives back the original bytes, BOM included');
  });

  it('a file without a final newline keeps having none (Gemini settings.json)', async () => {
    const original = await fixture('gemini-settings-no-final-newline.json');
    const file = await place('.gemini/settings.json', original);
    assert.equal((await run(['install', '--client', 'gemini'])).code, 0);
    const installed = await readFile(file, 'utf8');
    assert.ok(installed.endsWith('\t}\n}'));
    assert.equal(changedRegion(original, installed).removed, '');
  });

  it('Claude Code local scope edits only projects[<dir>].mcpServers in ~/.claude.json', async () => {
    const original = `${JSON.stringify({ numStartups: 42, projects: { '/other': { allowedTools: [] } }, tipsHistory: { a: 1 }, userID: 'abc' }, null, 2)}\n`;
    const file = await place('.claude.json', original);
    const project = join(home, 'work');
    await mkdir(project, { recursive: true });
    const result = await run(['install', '--client', 'claude-code', '--scope', 'local'], CREDS, project);
    assert.equal(result.code, 0, result.stderr);
    const installed = await readFile(file, 'utf8');
    assert.equal(changedRegion(original, installed).removed, '');
    const parsed = JSON.parse(installed);
    assert.ok(parsed.projects[project].mcpServers.service);
    assert.deepEqual(parsed.projects['/other'], { allowedTools: [] });
  });

  it('missing folders and files are created with 2-space JSON and a final newline', async () => {
    const result = await run(['install', '--client', 'cursor']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /created/);
    const text = await readFile(join(home, '.cursor', 'mcp.json'), 'utf8');
    assert.match(text, /^\{\n {2}"mcpServers": \{\n {4}"service": \{\n/);
    assert.ok(text.endsWith('}\n'));
  });
});
