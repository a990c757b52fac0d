/**
 * A team with a member on Windows and one on Linux, one repository. Claude Code needs `cmd /c` before a `.cmd`
 * program (npx, npm's svcctl shim) on native Windows, and Linux has no `cmd` (docs/teams.md, "Windows and Linux in
 * one team"), so the committed `.mcp.json` entry cannot be right on both: each member's sync says so, with what to do,
 * instead of calling the other's entry someone else's. Windows is injected (`platform: 'win32'`): its paths are then
 * Windows paths, which Linux takes as file names, so that member works in a folder of its own (`inWindowsFolder`).
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { placeFile, runCli } from './helpers/cli.js';
import { git, hasGit } from './helpers/git.js';
import { tempDir } from './helpers/temp-dirs.js';

// Proxy mode: Claude Code runs a program (svcctl mcp proxy); VS Code's entry is the same on both systems.
const DECLARATION = `clients = ["claude-code", "vscode"]
scope = "project"

[[server]]
name = "ops"
base_url = "https://acme.example.com/api"
mode = "proxy"
auth = "bearer"
token = "helper"
`;
const SCRIPT = '/usr/local/lib/node_modules/svcctl/bin/svcctl.js';

interface Member {
  home: string;
  clone: string;
}

async function member(name: string): Promise<Member> {
  const home = await tempDir(`svcctl-team-${name}-`);
  return { home, clone: join(home, 'src', 'proj') };
}

const linuxSync = (one: Member, args: string[] = []) =>
  runCli(['mcp', 'sync', '--file', 'svcctl-mcp.toml', ...args], { home: one.home, cwd: one.clone, script: SCRIPT });

/**
 * The Windows member's run: its paths (`\tmp\…\proj\.mcp.json`) are relative on Linux, so the process works in a
 * temp folder while it runs; `fileOf` is where a path of that member's lands.
 */
async function inWindowsFolder(): Promise<{
  sync: (one: Member, args?: string[]) => ReturnType<typeof runCli>;
  fileOf: (posixPath: string) => string;
}> {
  const folder = await tempDir('svcctl-team-windows-');
  const fileOf = (posixPath: string) => join(folder, posixPath.replaceAll('/', '\\'));
  const sync = async (one: Member, args: string[] = []) => {
    const before = process.cwd();
    process.chdir(folder);
    try {
      return await runCli(['mcp', 'sync', '--file', 'svcctl-mcp.toml', ...args], {
        home: one.home,
        cwd: one.clone,
        script: SCRIPT,
        platform: 'win32',
      });
    } finally {
      process.chdir(before);
    }
  };
  return { sync, fileOf };
}

interface ClaudeEntry {
  command: string;
  args: string[];
}
const opsOf = (text: string): ClaudeEntry => (JSON.parse(text) as { mcpServers: { ops: ClaudeEntry } }).mcpServers.ops;

describe('mcp sync: one member on Windows, one on Linux', { skip: hasGit ? false : 'git is not installed' }, () => {
  it('the Linux member pulls the Windows form: exit 7 saying why and what to do, --check 8, nothing written', async () => {
    const windows = await inWindowsFolder();
    const ann = await member('ann');
    const bob = await member('bob');
    await placeFile(ann.clone, 'svcctl-mcp.toml', DECLARATION);
    const wrote = await windows.sync(ann, ['--yes']);
    assert.equal(wrote.code, 0, wrote.stderr);
    // Claude Code's docs: on native Windows, `cmd` with `/c` before the program.
    const annText = await readFile(windows.fileOf(join(ann.clone, '.mcp.json')), 'utf8');
    assert.deepEqual(opsOf(annText).command, 'cmd');
    assert.deepEqual(opsOf(annText).args.slice(0, 2), ['/c', 'svcctl']);
    await writeFile(join(ann.clone, '.mcp.json'), annText);
    await placeFile(ann.clone, '.vscode/mcp.json', await readFile(windows.fileOf(join(ann.clone, '.vscode/mcp.json'))));
    git(ann.clone, ann.home, 'init', '-q');
    git(ann.clone, ann.home, 'add', '-A');
    git(ann.clone, ann.home, 'commit', '-q', '-m', 'team MCP servers');

    await mkdir(join(bob.home, 'src'));
    git(join(bob.home, 'src'), bob.home, 'clone', '-q', ann.clone, 'proj');
    const pulled = await linuxSync(bob, ['--yes']);
    assert.equal(pulled.code, 7, pulled.stderr);
    assert.match(
      pulled.stderr,
      /Claude Code \(project scope\): 'ops' not synced: it is the Windows form \(`cmd \/c` before the program\)/,
    );
    assert.match(pulled.stderr, /declare Claude Code with scope = "local" in a file of each member's own/);
    assert.doesNotMatch(pulled.stderr, /svcctl did not write it|to let sync manage it/);
    assert.match(pulled.stderr, /VS Code \(project scope\): .* is unchanged/);
    assert.equal(git(bob.clone, bob.home, 'status', '--porcelain'), '');
    const checked = await linuxSync(bob, ['--check']);
    assert.equal(checked.code, 8, checked.stderr);
    assert.match(checked.stderr, /not compliant: 1 entry cannot be synced/);
  });

  it('the Windows member pulls the Linux form: exit 7 with the reason, the file left as it was', async () => {
    const windows = await inWindowsFolder();
    const bob = await member('bob');
    const ann = await member('ann');
    await placeFile(bob.clone, 'svcctl-mcp.toml', DECLARATION);
    assert.equal((await linuxSync(bob, ['--yes'])).code, 0);
    const bobText = await readFile(join(bob.clone, '.mcp.json'), 'utf8');
    assert.equal(opsOf(bobText).command, 'svcctl');

    // Ann's clone of the same commit, as her Windows paths see it.
    await placeFile(ann.clone, 'svcctl-mcp.toml', DECLARATION);
    await writeFile(windows.fileOf(join(ann.clone, '.mcp.json')), bobText);
    const pulled = await windows.sync(ann, ['--yes']);
    assert.equal(pulled.code, 7, pulled.stderr);
    assert.match(pulled.stderr, /'ops' not synced: it is the form for Linux and macOS, without the `cmd \/c`/);
    assert.equal(await readFile(windows.fileOf(join(ann.clone, '.mcp.json')), 'utf8'), bobText);
  });
});
