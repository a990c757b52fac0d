/**
 * What `mcp sync` leaves and says (issue 46, item 7 and the small items of point 5): a file sync created and then
 * emptied goes with its .bak, as after `uninstall`, while a file the user had stays; a removal reads "removed 'x'
 * from FILE"; a file that does not exist is never "unchanged"; --check's last line says why the machine is not
 * compliant, counted.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { placeFile, runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const SERVERS = `[[server]]
name = "ops"
base_url = "https://acme.example.com/api"
mode = "remote"
auth = "bearer"
token = "helper"
`;
const absent = (path: string) => readFile(path, 'utf8').catch(() => '<absent>');
const lastLine = (text: string): string =>
  text
    .trim()
    .split('\n')
    .filter((line) => !line.startsWith('hint:'))
    .at(-1) ?? '';

async function setUp(text: string): Promise<{ home: string; file: string }> {
  const home = await tempDir('svcctl-sync-cleanup-');
  return { home, file: await placeFile(home, 'team/svcctl-mcp.toml', text) };
}

const sync = (home: string, args: string[]) => runCli(['mcp', 'sync', ...args], { home, cwd: home });

describe('mcp sync: what it leaves and says', () => {
  it('a file it created and emptied goes with its .bak; a file the user had stays', async () => {
    const { home, file } = await setUp(`clients = ["cursor", "vscode"]\n${SERVERS}`);
    const cursor = join(home, '.cursor', 'mcp.json');
    const vscode = join(home, '.config', 'Code', 'User', 'mcp.json');
    await placeFile(home, '.config/Code/User/mcp.json', '{\n  "servers": {}\n}\n');
    assert.equal((await sync(home, ['--file', file, '--yes'])).code, 0);
    // A second write leaves a .bak of the file sync created.
    await writeFile(file, `clients = ["cursor", "vscode"]\n${SERVERS}${SERVERS.replace('"ops"', '"docs"')}`);
    assert.equal((await sync(home, ['--file', file, '--yes'])).code, 0);
    assert.notEqual(await absent(`${cursor}.bak`), '<absent>');

    await writeFile(file, 'clients = ["cursor", "vscode"]\n');
    const emptied = await sync(home, ['--file', file, '--yes']);
    assert.equal(emptied.code, 0, emptied.stderr);
    assert.match(emptied.stderr, /Cursor \(user scope\): removed 'ops', removed 'docs' from .*\.cursor\/mcp\.json/);
    assert.match(emptied.stderr, /removed .*\.cursor\/mcp\.json and .*mcp\.json\.bak: svcctl created it/);
    assert.doesNotMatch(emptied.stderr, / in .*\.cursor\/mcp\.json/);
    assert.equal(await absent(cursor), '<absent>');
    assert.equal(await absent(`${cursor}.bak`), '<absent>');
    assert.deepEqual(JSON.parse(await readFile(vscode, 'utf8')), { servers: {} });
    const again = await sync(home, ['--file', file, '--check']);
    assert.equal(again.code, 0, again.stderr);
  });

  it('--check: a file that does not exist is "not created"; the last line counts what differs and what cannot be synced', async () => {
    const { home, file } = await setUp(
      `clients = ["cursor", "claude-desktop"]\n${SERVERS.replace(/token = .*\n/, '')}`,
    );
    const check = await sync(home, ['--file', file, '--check']);
    assert.equal(check.code, 8, check.stderr);
    assert.match(check.stderr, /Claude Desktop \(user scope\): .*claude_desktop_config\.json is not created/);
    assert.doesNotMatch(check.stderr, /claude_desktop_config\.json is unchanged/);
    assert.equal(
      lastLine(check.stderr),
      'error: not compliant: 1 file differs from the declaration, 1 entry cannot be synced (--check wrote nothing)',
    );
  });
});
