/**
 * An install that would land in svcctl's own folder through a link is refused (exit 7), and the hint names
 * the link to remove: the client's folder when that is the link (`~/.cursor` pointing at svcctl's config
 * folder), the file when the file is, and none when the file is named inside svcctl's folder itself (a
 * dotfiles link to that folder is the user's own). Nothing is written in any case.
 */
import assert from 'node:assert/strict';
import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const MCP_URL = 'https://acme.example.com/mcp';
const INSTALL = ['mcp', 'install', '--client', 'cursor', '--mode', 'remote', '--mcp-url', MCP_URL];
const ENV = { SERVICE_EMAIL: 'alice@example.com', SERVICE_PASSWORD: 'alice-link-hint-pw-1' };

async function homeWithConfigFolder(): Promise<{ home: string; folder: string }> {
  const home = await tempDir('svcctl-link-hint-');
  const folder = join(home, '.config', 'svcctl');
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await writeFile(join(folder, 'config.toml'), '', { mode: 0o600 });
  return { home, folder };
}

async function refused(home: string, args: string[]): Promise<string> {
  const result = await runCli(args, { home, env: ENV });
  assert.equal(result.code, 7, result.stderr);
  assert.match(result.stderr, /never change svcctl's own files/);
  return result.stderr;
}

describe("a link into svcctl's own folder: the hint names the link", () => {
  it('as written: ~/.cursor is a link to ~/.config/svcctl, so the hint removes ~/.cursor', async () => {
    const { home, folder } = await homeWithConfigFolder();
    const cursor = join(home, '.cursor');
    await symlink(folder, cursor);
    for (const args of [INSTALL, [...INSTALL, '--dry-run']]) {
      const stderr = await refused(home, args);
      assert.match(stderr, new RegExp(`${cursor}/mcp\\.json leads to ${folder}/mcp\\.json`));
      assert.match(stderr, new RegExp(`\\(${cursor} is a symbolic link\\)`));
      assert.match(stderr, new RegExp(`hint: remove the link \\(rm '${cursor}'\\)`));
      assert.doesNotMatch(stderr, /rm '?[^ ]*mcp\.json/);
    }
    assert.deepEqual(await readdir(folder), ['config.toml'], 'nothing written in the folder');
  });

  it('the file itself is the link: the hint names the file; named inside the folder: no link to remove', async () => {
    const { home, folder } = await homeWithConfigFolder();
    await mkdir(join(home, '.cursor'));
    const file = join(home, '.cursor', 'mcp.json');
    await symlink(join(folder, 'config.toml'), file);
    const stderr = await refused(home, INSTALL);
    assert.match(stderr, new RegExp(`hint: remove the link \\(rm '${file}'\\)`));

    const dotfiles = await tempDir('svcctl-link-hint-dotfiles-');
    const linkedHome = join(home, 'linked');
    await mkdir(join(linkedHome, '.config'), { recursive: true });
    await symlink(dotfiles, join(linkedHome, '.config', 'svcctl'));
    const named = join(linkedHome, '.config', 'svcctl', 'mcp.json');
    const inside = await refused(linkedHome, [
      ...['mcp', 'install', '--format', 'mcpServers', '--config', named],
      ...['--mode', 'remote', '--mcp-url', MCP_URL],
    ]);
    assert.match(inside, new RegExp(`${named} is in svcctl's own folder`));
    assert.doesNotMatch(inside, /rm /, "the dotfiles link to the folder is the user's own");
    assert.deepEqual(await readdir(dotfiles), []);
  });
});
