/**
 * Secrets and a project folder: a .bak of a project file that holds secrets
 * would sit in the project, one `git add -A` from a commit, so none is
 * written; literal secrets go into a project file of a git work tree only when
 * git ignores it (or with --force, which warns). The user's own files keep
 * their .bak.
 */
import assert from 'node:assert/strict';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { git, hasGit } from './helpers/git.js';
import { type ProjectFolder, projectFolder, projectInstall } from './helpers/project-fixtures.js';

const MCP_URL = 'https://acme.example.com/mcp';
const PASSWORD = 'alice-project-pw-9';
const ENV = { SERVICE_EMAIL: 'alice@example.com', SERVICE_PASSWORD: PASSWORD };
const OTHER_KEY = 'sk-live-0f3c9a7e5d1b';
const WITH_SECRET = `{\n  "mcpServers": {\n    "other": { "command": "other-server", "env": { "API_KEY": "${OTHER_KEY}" } }\n  }\n}\n`;
const WITHOUT_SECRET =
  '{\n  "mcpServers": {\n    "other": { "command": "other-server", "env": { "API_KEY": "${OTHER_API_KEY}" } }\n  }\n}\n';

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

const project = (text?: string): Promise<ProjectFolder> =>
  projectFolder({ prefix: 'svcctl-psecrets-home-', ...(text === undefined ? {} : { mcpJson: text }) });

const install = (extra: string[] = []): string[] => projectInstall('--mode', 'remote', '--mcp-url', MCP_URL, ...extra);

describe('project scope: no .bak of a file holding secrets', () => {
  it('another server with a literal key under a secret name: written, no .bak, and the message says why', async () => {
    const { home, proj, file } = await project(WITH_SECRET);
    const result = await runCli(install(), { home, cwd: proj, env: ENV });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(await exists(`${file}.bak`), false);
    assert.match(result.stderr, /no backup: the old file holds secrets/);
    assert.equal(JSON.parse(await readFile(file, 'utf8')).mcpServers.other.env.API_KEY, OTHER_KEY);
  });

  it('a file with only references to variables keeps its .bak', async () => {
    const { home, proj, file } = await project(WITHOUT_SECRET);
    const result = await runCli(install(), { home, cwd: proj, env: ENV });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(await readFile(`${file}.bak`, 'utf8'), WITHOUT_SECRET);
  });

  it('our own literal password: neither a second install nor the uninstall leaves a .bak', async () => {
    const { home, proj, file } = await project();
    const first = await runCli(install(['--secrets', 'literal']), { home, cwd: proj, env: ENV });
    assert.equal(first.code, 0, first.stderr);
    assert.match(await readFile(file, 'utf8'), new RegExp(PASSWORD));
    const again = await runCli(install(['--secrets', 'literal', '--name', 'second']), {
      home,
      cwd: proj,
      env: ENV,
    });
    assert.equal(again.code, 0, again.stderr);
    const removed = await runCli(['mcp', 'uninstall', '--client', 'claude-code', '--scope', 'project'], {
      home,
      cwd: proj,
      env: ENV,
    });
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal(await exists(`${file}.bak`), false);
  });

  it('user scope: the .bak is kept (it stays among your own files)', async () => {
    const { home } = await project();
    const file = join(home, '.cursor', 'mcp.json');
    await mkdir(join(home, '.cursor'));
    await writeFile(file, WITH_SECRET, { mode: 0o600 });
    const result = await runCli(['mcp', 'install', '--client', 'cursor', '--mode', 'remote', '--mcp-url', MCP_URL], {
      home,
      env: ENV,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(await readFile(`${file}.bak`, 'utf8'), WITH_SECRET);
  });
});

describe('project scope: literal secrets in a git work tree', { skip: hasGit ? false : 'git is not installed' }, () => {
  async function repository(text?: string): Promise<{ home: string; proj: string; file: string }> {
    const made = await project(text);
    git(made.proj, made.home, 'init', '-q');
    return made;
  }

  it('a file git does not ignore: refused (exit 7), also by --dry-run, nothing written', async () => {
    const { home, proj, file } = await repository();
    for (const extra of [['--dry-run'], []]) {
      const result = await runCli(install(['--secrets', 'literal', ...extra]), {
        home,
        cwd: proj,
        env: ENV,
      });
      assert.equal(result.code, 7, result.stderr);
      assert.match(result.stderr, /\.mcp\.json is in a git work tree and git does not ignore it/);
      assert.match(result.stderr, /hint: use --secrets ref/);
    }
    assert.equal(await exists(file), false);
  });

  it('a tracked file is refused even when .gitignore names it', async () => {
    const { home, proj, file } = await repository(WITHOUT_SECRET);
    git(proj, home, 'add', '.mcp.json');
    git(proj, home, 'commit', '-q', '-m', 'shared servers');
    await writeFile(join(proj, '.gitignore'), '.mcp.json\n');
    const result = await runCli(install(['--secrets', 'literal']), { home, cwd: proj, env: ENV });
    assert.equal(result.code, 7, result.stderr);
    assert.equal(await readFile(file, 'utf8'), WITHOUT_SECRET);
  });

  it('an ignored file takes literal values; references are never refused', async () => {
    const { home, proj, file } = await repository();
    const byReference = await runCli(install(), { home, cwd: proj, env: ENV });
    assert.equal(byReference.code, 0, byReference.stderr);
    await writeFile(join(proj, '.gitignore'), '.mcp.json\n.mcp.json.bak\n');
    const literal = await runCli(install(['--secrets', 'literal', '--name', 'literal']), {
      home,
      cwd: proj,
      env: ENV,
    });
    assert.equal(literal.code, 0, literal.stderr);
    assert.match(await readFile(file, 'utf8'), new RegExp(PASSWORD));
  });

  it('--force writes with a warning, and leaves no .bak of the old file holding secrets', async () => {
    const { home, proj, file } = await repository(WITH_SECRET);
    const result = await runCli(install(['--secrets', 'literal', '--force']), {
      home,
      cwd: proj,
      env: ENV,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      /warning: .*\.mcp\.json is in a git work tree and git does not ignore it: .*do not commit it/,
    );
    assert.match(await readFile(file, 'utf8'), new RegExp(PASSWORD));
    assert.equal(await exists(`${file}.bak`), false);
  });
});
