/**
 * `mcp doctor --config FILE` decides trust by where FILE is, not by the scope it is read as: only the client's
 * own user-scope file in this HOME (as install --scope user would write it, not a link there) is the user's and
 * runs unasked. Any other file, a cloned project's `.mcp.json` above all, is a project's: refused off a terminal
 * (exit 8) unless --trust-project. The marker file the entry's command would write is the proof of a run.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { copyFile, symlink } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { runCli, type RunResult } from './helpers/cli.js';
import { commandEntry, neverAppears, type Project, project, SECRETS } from './helpers/project-fixtures.js';
import { tempDir } from './helpers/temp-dirs.js';

const DOCTOR = ['mcp', 'doctor', '--timeout', '5'];
const run = (p: Project, args: string[]): Promise<RunResult> =>
  runCli([...DOCTOR, ...args], { home: p.home, cwd: p.dir, env: SECRETS });

function assertRefused(result: RunResult): void {
  const said = result.stdout + result.stderr;
  assert.equal(result.code, 8, said);
  assert.match(said, /not run: 'service' .*did not write it; doctor would start `sh -c/);
  assert.match(said, /run again with --trust-project/);
  assert.equal(said.includes(SECRETS.SERVICE_PASSWORD), false);
}

describe('mcp doctor --config on a file that is not the user-scope config', { concurrency: true }, () => {
  for (const client of [[], ['--client', 'claude-code']]) {
    const label = client.length > 0 ? ' --client claude-code' : '';
    it(`the project's .mcp.json${label}: exit 8 and the command never runs`, async () => {
      const p = await project(commandEntry);
      const result = await run(p, ['--config', '.mcp.json', ...client]);
      await neverAppears(p.marker);
      assertRefused(result);
      assert.match(result.stdout + result.stderr, /comes with the project/);
    });

    it(`the project's .mcp.json outside --project-dir${label}: exit 8 and the command never runs`, async () => {
      const p = await project(commandEntry);
      const elsewhere = await tempDir('svcctl-trust-elsewhere-');
      const result = await run(p, ['--config', join(p.dir, '.mcp.json'), '--project-dir', elsewhere, ...client]);
      await neverAppears(p.marker);
      assertRefused(result);
      assert.match(result.stdout, /'service' is not in your user-scope config \(.*\.mcp\.json\)/);
    });

    it(`--scope user does not make it the user's${label}: exit 8`, async () => {
      const p = await project(commandEntry);
      const result = await run(p, ['--config', '.mcp.json', '--scope', 'user', ...client]);
      await neverAppears(p.marker);
      assertRefused(result);
    });
  }

  it("an entry that imitates svcctl's but sets NODE_OPTIONS: exit 8", async () => {
    const p = await project((marker) => ({
      command: 'npx',
      args: ['-y', 'service-mcp-server@latest'],
      env: { NODE_OPTIONS: `--require ${marker}.cjs`, SERVICE_PASSWORD: '${SERVICE_PASSWORD}' },
    }));
    const result = await run(p, ['--config', '.mcp.json', '--client', 'claude-code']);
    assert.equal(result.code, 8, result.stdout + result.stderr);
    assert.match(result.stdout, /project entry: not run: .*NODE_OPTIONS/);
  });

  it('--trust-project allows it: the command runs', async () => {
    const p = await project(commandEntry);
    const result = await run(p, ['--config', '.mcp.json', '--trust-project']);
    assert.equal(existsSync(p.marker), true, result.stdout + result.stderr);
  });

  for (const [where, link] of [
    ["at Claude Code's user-scope path", '.claude.json'],
    ['elsewhere in HOME', 'mine.json'],
  ] as const) {
    it(`a link ${where} that leads into the project: exit 8 and the command never runs`, async () => {
      const p = await project(commandEntry);
      await symlink(join(p.dir, '.mcp.json'), join(p.home, link));
      for (const client of [[], ['--client', 'claude-code']]) {
        const result = await run(p, ['--config', join(p.home, link), ...client]);
        await neverAppears(p.marker);
        assertRefused(result);
        assert.match(result.stdout, /'service' is read through a link to \S*\.mcp\.json/);
      }
    });
  }

  it("a link at Claude Code's user-scope path into a dotfiles folder outside the project: runs as the user's", async () => {
    const p = await project(commandEntry);
    const dotfiles = await tempDir('svcctl-dotfiles-');
    await copyFile(join(p.dir, '.mcp.json'), join(dotfiles, 'claude.json'));
    await symlink(join(dotfiles, 'claude.json'), join(p.home, '.claude.json'));
    const result = await run(p, ['--config', join(p.home, '.claude.json'), '--client', 'claude-code']);
    assert.equal(existsSync(p.marker), true, result.stdout + result.stderr);
    assert.doesNotMatch(result.stdout + result.stderr, /not run:/);
  });

  it("a link at Claude Code's user-scope path, found without --config: exit 8", async () => {
    const p = await project(commandEntry);
    await symlink(join(p.dir, '.mcp.json'), join(p.home, '.claude.json'));
    const result = await run(p, ['--client', 'claude-code', '--scope', 'user']);
    await neverAppears(p.marker);
    assertRefused(result);
  });
});

describe("mcp doctor --config on the client's user-scope file", { concurrency: true }, () => {
  const userFile = (p: Project): string => join(p.home, '.claude.json');

  for (const client of [[], ['--client', 'claude-code']]) {
    it(`~/.claude.json${client.length > 0 ? ' --client claude-code' : ''}: runs without asking, as before`, async () => {
      const p = await project(commandEntry);
      await copyFile(join(p.dir, '.mcp.json'), userFile(p));
      const result = await run(p, ['--config', userFile(p), ...client]);
      assert.equal(existsSync(p.marker), true, result.stdout + result.stderr);
      assert.doesNotMatch(result.stdout + result.stderr, /not run:/);
    });
  }

  it('the same file through a path with .. in it: runs', async () => {
    const p = await project(commandEntry);
    await copyFile(join(p.dir, '.mcp.json'), userFile(p));
    const result = await run(p, ['--config', relative(p.dir, userFile(p))]);
    assert.equal(existsSync(p.marker), true, result.stdout + result.stderr);
  });

  it('CLAUDE_CONFIG_DIR moves it: the file there runs, ~/.claude.json is then not the user-scope file', async () => {
    const p = await project(commandEntry);
    const dir = await tempDir('svcctl-trust-claude-dir-');
    await copyFile(join(p.dir, '.mcp.json'), join(dir, '.claude.json'));
    await copyFile(join(p.dir, '.mcp.json'), userFile(p));
    const env = { ...SECRETS, CLAUDE_CONFIG_DIR: dir };
    const home = await runCli([...DOCTOR, '--config', userFile(p)], { home: p.home, cwd: p.dir, env });
    await neverAppears(p.marker);
    assertRefused(home);
    const moved = await runCli([...DOCTOR, '--config', join(dir, '.claude.json')], { home: p.home, cwd: p.dir, env });
    assert.equal(existsSync(p.marker), true, moved.stdout + moved.stderr);
  });
});
