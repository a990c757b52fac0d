/**
 * What sync cannot sync: an entry of a declared name that svcctl did not write (a colleague's own `ops`, or
 * svcctl's entry that a person edited), or a client's file that does not parse. Walking docs/teams.md as a team
 * member: the run must say what to do about each, end on a line that says the run did not finish its job, and
 * `--check` must not promise that a plain sync brings the machine in line (it cannot while those are there).
 */
import assert from 'node:assert/strict';
import { readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { placeFile, runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const DECLARATION = `clients = ["cursor"]
scope = "user"

[[server]]
name = "ops"
base_url = "https://acme.example.com/api"
mode = "remote"
`;

/** A person's own entry of the declared name, as they would write it by hand. */
const OWN_ENTRY = `{\n  "mcpServers": {\n    "ops": { "url": "https://ops.example.org/mcp" }\n  }\n}\n`;

const lastLines = (stderr: string, count: number): string => stderr.trimEnd().split('\n').slice(-count).join('\n');

describe('mcp sync: what it cannot sync says what to do', () => {
  it('the warning says how to take the entry over, and the run ends saying what was not synced', async () => {
    const home = await tempDir('svcctl-foreign-');
    const file = await placeFile(home, 'svcctl-mcp.toml', DECLARATION);
    await placeFile(home, '.cursor/mcp.json', OWN_ENTRY);
    const result = await runCli(['mcp', 'sync', '--file', file, '--yes'], { home, cwd: home });
    assert.equal(result.code, 7, result.stderr);
    assert.match(result.stderr, /'ops' not synced: .*svcctl mcp uninstall --client cursor --name ops/);
    assert.match(lastLines(result.stderr, 2), /^error: 1 entry could not be synced\b/m);
    assert.equal(await readFile(join(home, '.cursor/mcp.json'), 'utf8'), OWN_ENTRY, 'the person’s entry stays');

    // The step the warning names, then the sync that takes the name over.
    const uninstall = await runCli(['mcp', 'uninstall', '--client', 'cursor', '--name', 'ops'], { home, cwd: home });
    assert.equal(uninstall.code, 0, uninstall.stderr);
    const again = await runCli(['mcp', 'sync', '--file', file, '--yes'], { home, cwd: home });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /added 'ops'/);
  });

  it('--check names the way out, not a sync that would leave the entry as it is', async () => {
    const home = await tempDir('svcctl-foreign-');
    const file = await placeFile(home, 'svcctl-mcp.toml', DECLARATION);
    await placeFile(home, '.cursor/mcp.json', OWN_ENTRY);
    const check = await runCli(['mcp', 'sync', '--file', file, '--check'], { home, cwd: home });
    assert.equal(check.code, 8, check.stderr);
    const hint = lastLines(check.stderr, 1);
    assert.match(hint, /^hint: /);
    assert.doesNotMatch(hint, /brings the files in line/);
    assert.match(check.stderr, /svcctl mcp uninstall --client cursor --name ops/);
    // What a sync would then do: exit 7, the entry left, as the hint must not hide.
    assert.equal((await runCli(['mcp', 'sync', '--file', file, '--yes'], { home, cwd: home })).code, 7);
  });

  it('a project-scope entry: the way out names the scope and the project folder sync used', async () => {
    const home = await tempDir('svcctl-foreign-');
    const repo = join(home, 'repo');
    const file = await placeFile(repo, 'svcctl-mcp.toml', DECLARATION.replace('"user"', '"project"'));
    await placeFile(repo, '.cursor/mcp.json', OWN_ENTRY);
    const result = await runCli(['mcp', 'sync', '--file', file, '--yes'], { home, cwd: home });
    assert.equal(result.code, 7, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(`svcctl mcp uninstall --client cursor --name ops --scope project --project-dir ${repo}\\b`),
    );
    const uninstall = await runCli(
      ['mcp', 'uninstall', '--client', 'cursor', '--name', 'ops', '--scope', 'project', '--project-dir', repo],
      { home, cwd: home },
    );
    assert.equal(uninstall.code, 0, uninstall.stderr);
    assert.equal((await runCli(['mcp', 'sync', '--file', file, '--yes'], { home, cwd: home })).code, 0);
  });

  it('a client file that does not parse: the warning says to fix it by hand, as mcp install does', async () => {
    const home = await tempDir('svcctl-foreign-');
    const file = await placeFile(home, 'svcctl-mcp.toml', DECLARATION);
    await placeFile(home, '.cursor/mcp.json', '{"mcpServers": {\n');
    const result = await runCli(['mcp', 'sync', '--file', file, '--yes'], { home, cwd: home });
    assert.equal(result.code, 7, result.stderr);
    assert.match(result.stderr, /warning: Cursor \(user scope\): not synced: .*does not parse.*fix the file by hand/);
    assert.match(lastLines(result.stderr, 2), /^error: 1 file could not be synced\b/m);
  });

  it('a run that only removes entries asks for a restart that drops them, not one that reads new ones', async () => {
    const home = await tempDir('svcctl-foreign-');
    const second = '\n[[server]]\nname = "old"\nbase_url = "https://acme.example.com/api"\nmode = "remote"\n';
    const file = await placeFile(home, 'svcctl-mcp.toml', DECLARATION + second);
    assert.equal((await runCli(['mcp', 'sync', '--file', file, '--yes'], { home, cwd: home })).code, 0);
    await placeFile(home, 'svcctl-mcp.toml', DECLARATION);
    const result = await runCli(['mcp', 'sync', '--file', file, '--yes'], { home, cwd: home });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /removed 'old'/);
    assert.equal(lastLines(result.stderr, 1), 'Restart or reload the clients so they drop the removed ones.');
  });
});

describe('mcp sync: a run whose only write fails says nothing was written', () => {
  it('a project whose .cursor links outside it: exit 7, "nothing was written", changed false in --json', async () => {
    const home = await tempDir('svcctl-sync-nothing-');
    const project = join(home, 'repo');
    const file = await placeFile(
      home,
      'repo/svcctl-mcp.toml',
      DECLARATION.replace('scope = "user"', 'scope = "project"'),
    );
    const outside = join(home, 'elsewhere');
    await placeFile(home, 'elsewhere/keep.txt', 'x');
    await symlink(outside, join(project, '.cursor'));
    const run = await runCli(['mcp', 'sync', '--file', file, '--yes'], { home, cwd: project });
    assert.equal(run.code, 7, run.stderr);
    assert.match(lastLines(run.stderr, 2), /nothing was written/);
    assert.doesNotMatch(run.stderr, /everything else was written/);
    const json = await runCli(['--json', 'mcp', 'sync', '--file', file, '--yes'], { home, cwd: project });
    assert.equal(json.code, 7, json.stderr);
    assert.equal(JSON.parse(json.stdout).changed, false);
  });
});
