/**
 * The project folder is the one the clients use, not the folder svcctl happens to run in: the root of the git work
 * tree (Claude Code finds `.mcp.json` walking up from its folder; editors open the repository), and for Claude Code's
 * local scope its canonical root, the main work tree of a linked one (Claude Code 2.1.332, docs/mcp.md). Real git
 * repositories in a temp folder; the expected folders are the ones made here, by their real paths.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { placeFile, runCli } from './helpers/cli.js';
import { git, hasGit } from './helpers/git.js';
import { tempDir } from './helpers/temp-dirs.js';

const ENV = { SERVICE_BASE_URL: 'https://acme.example.com/api' };

async function repository(): Promise<{ home: string; repo: string; sub: string }> {
  const home = await tempDir('svcctl-project-');
  const repo = join(home, 'repo');
  const sub = join(repo, 'src', 'deep');
  await mkdir(sub, { recursive: true });
  git(repo, home, 'init', '-q');
  return { home, repo: await realpath(repo), sub };
}

const install = (home: string, cwd: string, args: string[]) =>
  runCli(['mcp', 'install', '--client', 'claude-code', '--mode', 'remote', ...args], { home, cwd, env: ENV });

const projectsOf = async (home: string): Promise<string[]> =>
  Object.keys(JSON.parse(await readFile(join(home, '.claude.json'), 'utf8')).projects ?? {});

describe('the project folder', { skip: hasGit ? false : 'git is not installed' }, () => {
  it('local scope from a subfolder: keyed by the repository’s root, and the output names it', async () => {
    const { home, repo, sub } = await repository();
    const result = await install(home, sub, ['--scope', 'local']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(await projectsOf(home), [repo]);
    assert.ok(result.stderr.includes(`project folder: ${repo} (the root of the git work tree`), result.stderr);
  });

  it('project scope from a subfolder: the files go to the repository’s root', async () => {
    const { home, repo, sub } = await repository();
    assert.equal((await install(home, sub, ['--scope', 'project'])).code, 0);
    const cursor = await runCli(['mcp', 'install', '--client', 'cursor', '--scope', 'project', '--mode', 'remote'], {
      home,
      cwd: sub,
      env: ENV,
    });
    assert.equal(cursor.code, 0, cursor.stderr);
    assert.ok(JSON.parse(await readFile(join(repo, '.mcp.json'), 'utf8')).mcpServers.service);
    assert.ok(JSON.parse(await readFile(join(repo, '.cursor', 'mcp.json'), 'utf8')).mcpServers.service);
    // list and uninstall look where install wrote.
    const listed = await runCli(['--json', 'mcp', 'list'], { home, cwd: sub });
    assert.ok(listed.stdout.includes(join(repo, '.cursor', 'mcp.json')), listed.stdout);
    assert.equal(
      (await runCli(['mcp', 'uninstall', '--client', 'claude-code', '--scope', 'project'], { home, cwd: sub })).code,
      0,
    );
    assert.deepEqual(
      JSON.parse(await readFile(join(repo, '.mcp.json'), 'utf8').catch(() => '{"mcpServers":{}}')).mcpServers,
      {},
    );
  });

  it('a linked work tree: its own files, and Claude Code’s local scope keyed by the main work tree', async () => {
    const { home, repo } = await repository();
    await placeFile(repo, 'README', 'x\n');
    git(repo, home, 'add', '-A');
    git(repo, home, 'commit', '-q', '-m', 'first');
    git(repo, home, 'worktree', 'add', '-q', join(home, 'feature'));
    const feature = await realpath(join(home, 'feature'));
    const local = await install(home, feature, ['--scope', 'local']);
    assert.equal(local.code, 0, local.stderr);
    assert.deepEqual(await projectsOf(home), [repo]);
    assert.ok(local.stderr.includes(`Claude Code's local scope: ${repo} (the main work tree)`), local.stderr);
    assert.equal((await install(home, feature, ['--scope', 'project'])).code, 0);
    assert.ok(JSON.parse(await readFile(join(feature, '.mcp.json'), 'utf8')).mcpServers.service);
  });

  it('--project-dir names the folder; outside any repository it is the current folder', async () => {
    const { home, repo, sub } = await repository();
    const given = await install(home, repo, ['--scope', 'local', '--project-dir', 'src']);
    assert.equal(given.code, 0, given.stderr);
    assert.match(given.stderr, /project folder: .*\/repo\/src \(--project-dir\)/);
    const plain = await tempDir('svcctl-project-plain-');
    const outside = await install(home, plain, ['--scope', 'local']);
    assert.equal(outside.code, 0, outside.stderr);
    assert.deepEqual((await projectsOf(home)).sort(), [join(repo, 'src'), plain].sort());
    assert.match(outside.stderr, /\(the current folder, in no git work tree/);
    assert.ok(sub.startsWith(repo));
  });
});
