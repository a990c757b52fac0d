/**
 * `mcp uninstall` removes a config file that `mcp install` created once it holds nothing but the empty
 * shell svcctl would write (with its .bak when that holds no user content); a file the user made, or one
 * with anything else in it, stays. svcctl knows what it created from its state folder, not from content.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { lstat, readFile, rename, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { placeFile } from './helpers/cli.js';
import { runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const ENV = { SERVICE_BASE_URL: 'https://acme.example.com/api' };
const cursor = (home: string): string => join(home, '.cursor', 'mcp.json');
const record = (home: string): string => join(home, '.local', 'state', 'svcctl', 'created-files.json');

async function run(home: string, ...args: string[]) {
  const result = await runCli(args, { home, env: ENV });
  assert.equal(result.code, 0, result.stderr);
  return result;
}
const install = (home: string, ...extra: string[]) => run(home, 'mcp', 'install', '--client', 'cursor', ...extra);
const uninstall = (home: string, ...extra: string[]) => run(home, 'mcp', 'uninstall', '--client', 'cursor', ...extra);

describe('mcp uninstall of a file svcctl created', () => {
  it('removes it, says so, and forgets it; the record is private (0600 in a 0700 folder)', async () => {
    const home = await tempDir('svcctl-created-');
    await install(home);
    assert.deepEqual(JSON.parse(await readFile(record(home), 'utf8')).files, [cursor(home)]);
    assert.equal((await stat(record(home))).mode & 0o777, 0o600);
    assert.equal((await stat(join(home, '.local', 'state', 'svcctl'))).mode & 0o777, 0o700);
    const result = await uninstall(home);
    assert.ok(!existsSync(cursor(home)), 'the file is gone');
    assert.ok(!existsSync(`${cursor(home)}.bak`), 'no backup of a file that is gone');
    assert.match(result.stderr, /removed .*\.cursor\/mcp\.json: svcctl created it and nothing else was left in it/);
    assert.deepEqual(JSON.parse(await readFile(record(home), 'utf8')).files, []);
  });

  it('--dry-run says it would remove it and removes nothing', async () => {
    const home = await tempDir('svcctl-created-');
    await install(home);
    const before = await readFile(cursor(home), 'utf8');
    const result = await uninstall(home, '--dry-run');
    assert.match(result.stderr, /would remove .*\.cursor\/mcp\.json: svcctl created it/);
    assert.equal(await readFile(cursor(home), 'utf8'), before);
  });

  it('its .bak goes too when it holds only svcctl entries; a .bak with anything else stays', async () => {
    const home = await tempDir('svcctl-created-');
    await install(home);
    await install(home, '--mode', 'remote', '--force'); // the .bak holds the local entry svcctl wrote first
    assert.ok(existsSync(`${cursor(home)}.bak`));
    const result = await uninstall(home);
    assert.ok(!existsSync(cursor(home)) && !existsSync(`${cursor(home)}.bak`), result.stderr);
    assert.match(result.stderr, /and .*mcp\.json\.bak/);

    await install(home);
    const theirs = '{ "mcpServers": { "theirs": { "command": "their-server" } } }\n';
    await writeFile(`${cursor(home)}.bak`, theirs);
    await uninstall(home);
    assert.ok(!existsSync(cursor(home)));
    assert.equal(await readFile(`${cursor(home)}.bak`, 'utf8'), theirs, 'a .bak with user content stays');
  });

  it('keeps a file that holds anything else: another server, a comment, another key', async () => {
    const edits: [string, (text: string) => string][] = [
      ['another server', (t) => t.replace('"mcpServers": {', '"mcpServers": {\n    "theirs": { "command": "x" },')],
      ['a comment', (t) => `// mine\n${t}`],
      ['another key', (t) => t.replace(/^\{/, '{\n  "theme": "dark",')],
    ];
    for (const [what, edit] of edits) {
      const home = await tempDir('svcctl-created-');
      await install(home);
      const edited = edit(await readFile(cursor(home), 'utf8'));
      assert.notEqual(edited, await readFile(cursor(home), 'utf8'), what);
      await writeFile(cursor(home), edited);
      await uninstall(home);
      assert.ok(existsSync(cursor(home)), `${what}: the file stays`);
      assert.doesNotMatch(await readFile(cursor(home), 'utf8'), /"service"/, what);
    }
  });

  it('keeps the empty shell of a file the user made, even when it looks like the one svcctl writes', async () => {
    const home = await tempDir('svcctl-created-');
    await placeFile(home, '.cursor/mcp.json', '{\n  "mcpServers": {}\n}\n');
    await install(home);
    await uninstall(home);
    assert.deepEqual(JSON.parse(await readFile(cursor(home), 'utf8')), { mcpServers: {} });
    assert.ok(!existsSync(record(home)) || !(await readFile(record(home), 'utf8')).includes(cursor(home)));
  });

  it('keeps the file while another entry of svcctl is in it; the last one removes it', async () => {
    const home = await tempDir('svcctl-created-');
    await install(home);
    await install(home, '--name', 'service-staging');
    await uninstall(home);
    assert.ok(existsSync(cursor(home)));
    await uninstall(home, '--name', 'service-staging');
    assert.ok(!existsSync(cursor(home)));
  });

  it('never removes through a link: the link and the file it names stay', async () => {
    const home = await tempDir('svcctl-created-');
    await install(home);
    const real = join(home, 'dotfiles-mcp.json');
    await rename(cursor(home), real);
    await symlink(real, cursor(home));
    await uninstall(home);
    assert.ok(existsSync(real), 'the file the link names stays');
    assert.ok((await lstat(cursor(home))).isSymbolicLink(), 'the link stays');
  });
});
