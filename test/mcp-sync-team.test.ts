/**
 * docs/teams.md's repository recipe, as a team lives it: two members, each with a HOME of their own and svcctl
 * installed at a different path, one git repository. The project files sync writes are committed, so they must be
 * the same text on both machines: nothing of one member's install or HOME in them.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { placeFile, runCli } from './helpers/cli.js';
import { git, hasGit } from './helpers/git.js';
import { tempDir } from './helpers/temp-dirs.js';

const SERVER = (name: string): string =>
  `[[server]]\nname = "${name}"\nbase_url = "https://acme.example.com/api"\nmode = "remote"\nauth = "bearer"\ntoken = "helper"\n`;
const DECLARATION = `clients = ["claude-code", "cursor", "vscode"]\nscope = "project"\n\n${SERVER('ops')}`;
const PROJECT_FILES = ['.mcp.json', '.cursor/mcp.json', '.vscode/mcp.json'];

interface Member {
  home: string;
  clone: string;
  /** Where this member's svcctl is installed (the script main() runs as). */
  script: string;
  env: Record<string, string>;
}

const sync = (member: Member, args: string[] = []) =>
  runCli(['mcp', 'sync', '--file', 'svcctl-mcp.toml', ...args], {
    home: member.home,
    cwd: member.clone,
    script: member.script,
    env: member.env,
  });

async function member(name: string, script: string, env: Record<string, string> = {}): Promise<Member> {
  const home = await tempDir(`svcctl-team-${name}-`);
  return { home, clone: join(home, 'src', 'proj'), script, env };
}

describe('mcp sync: a team’s declaration in a repository', { skip: hasGit ? false : 'git is not installed' }, () => {
  it('two members with svcctl at two paths: clone, sync, commit, pull, sync, --check; no committed file changes', async () => {
    // Alice is behind a TLS-inspecting proxy: her CA file is for her machine, not for the repository.
    const alice = await member('alice', '/opt/alice-tools/svcctl/bin/svcctl.js', {
      NODE_EXTRA_CA_CERTS: '/opt/alice-tools/corp-ca.pem',
    });
    const bob = await member('bob', '/usr/local/lib/node_modules/svcctl/bin/svcctl.js');

    await placeFile(alice.clone, 'svcctl-mcp.toml', DECLARATION);
    await placeFile(alice.clone, '.gitignore', '*.bak\n');
    git(alice.clone, alice.home, 'init', '-q');
    const first = await sync(alice, ['--yes']);
    assert.equal(first.code, 0, first.stderr);
    assert.ok(first.stderr.includes(`project folder: ${alice.clone} (the folder holding svcctl-mcp.toml)`));
    for (const file of PROJECT_FILES) {
      const text = await readFile(join(alice.clone, file), 'utf8');
      assert.ok(text.includes('"ops"'), `${file}: ${text}`);
      for (const mine of [alice.home, '/opt/alice-tools', process.execPath, 'NODE_EXTRA_CA_CERTS'])
        assert.ok(!text.includes(mine), `${file} names ${mine}: ${text}`);
    }
    git(alice.clone, alice.home, 'add', '-A');
    git(alice.clone, alice.home, 'commit', '-q', '-m', 'team MCP servers');

    await mkdir(join(bob.home, 'src'));
    git(join(bob.home, 'src'), bob.home, 'clone', '-q', alice.clone, 'proj');
    // Bob's sync has nothing to write, so nothing to approve either: no --yes.
    const bobs = await sync(bob);
    assert.equal(bobs.code, 0, bobs.stderr);
    assert.match(bobs.stderr, /nothing to change/);
    assert.equal(git(bob.clone, bob.home, 'status', '--porcelain'), '');
    for (const one of [alice, bob]) assert.equal((await sync(one, ['--check'])).code, 0);

    // Alice adds a server; Bob pulls and syncs: the committed files are already what his svcctl writes.
    await writeFile(join(alice.clone, 'svcctl-mcp.toml'), `${DECLARATION}\n${SERVER('docs')}`);
    assert.equal((await sync(alice, ['--yes'])).code, 0);
    git(alice.clone, alice.home, 'add', '-A');
    git(alice.clone, alice.home, 'commit', '-q', '-m', 'docs server');
    git(bob.clone, bob.home, 'pull', '-q', '--ff-only');
    const pulled = await sync(bob);
    assert.equal(pulled.code, 0, pulled.stderr);
    assert.equal(git(bob.clone, bob.home, 'status', '--porcelain'), '');
    for (const one of [alice, bob]) assert.equal((await sync(one, ['--check'])).code, 0);
    const servers = JSON.parse(await readFile(join(bob.clone, '.mcp.json'), 'utf8')).mcpServers;
    assert.deepEqual(Object.keys(servers), ['ops', 'docs']);
    assert.match(servers.ops.headersHelper, /^svcctl --base-url https:\/\/acme\.example\.com\/api token /);
  });
});
