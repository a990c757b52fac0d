/**
 * A project's config files come with the project, links included. For every
 * client with a project-scope (or in-project local-scope) file, a link at the
 * file and at each folder between the project folder and it points outside
 * the project: install, its --dry-run and uninstall refuse with exit 7 naming
 * the link, the outside file keeps its bytes, and no .bak appears anywhere.
 * A link that stays inside the project is written through.
 */
import assert from 'node:assert/strict';
import { link, lstat, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { describe, it } from 'node:test';
import { CLIENTS } from '../src/mcp/clients/table.js';
import type { ClientEnv, ClientId, Scope } from '../src/mcp/types.js';
import { runCli } from './helpers/cli.js';
import { projectInstall } from './helpers/project-fixtures.js';
import { tempDir } from './helpers/temp-dirs.js';

const MCP_URL = 'https://acme.example.com/mcp';
const ENV = { SERVICE_EMAIL: 'alice@example.com', SERVICE_PASSWORD: 'alice-links-pw-1' };

interface ProjectFile {
  client: ClientId;
  scope: Scope;
  /** The file, relative to the project folder. */
  path: string;
}

/** Every file of the client table that lives in the project folder (project scope, and local scope where it is there too). */
function projectFiles(): ProjectFile[] {
  const env: ClientEnv = {
    homeDir: '/home/u',
    env: {},
    platform: 'linux',
    projectDir: '/work/p',
    fs: { exists: () => false, list: () => [], readText: () => undefined },
  };
  return Object.values(CLIENTS).flatMap((client) =>
    client.scopes
      .filter((scope) => scope !== 'user')
      .map((scope) => ({ client: client.id, scope, path: relative(env.projectDir, client.configPath(env, scope)) }))
      .filter((file) => !file.path.startsWith('..')),
  );
}

/** An entry every client can hold (Visual Studio takes no remote headers: it gets the proxy). */
const installArgs = (file: ProjectFile): string[] => [
  'mcp',
  'install',
  '--client',
  file.client,
  '--scope',
  file.scope,
  '--mode',
  file.client === 'visual-studio' ? 'proxy' : 'remote',
  '--mcp-url',
  MCP_URL,
];
const uninstallArgs = (file: ProjectFile): string[] => [
  'mcp',
  'uninstall',
  '--client',
  file.client,
  '--scope',
  file.scope,
];

const victimText = (path: string): string =>
  path.endsWith('.toml') ? '# outside the project\n' : '{ "outside": "the project" }\n';

/** Every file under `root` whose name ends in .bak. */
async function backupsUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.name.endsWith('.bak')).map((entry) => join(entry.parentPath, entry.name));
}

/** The places a link can stand: the file itself and each folder between the project folder and it. */
const linkPoints = (path: string): string[] =>
  path.split(sep).map((_part, index, parts) => parts.slice(0, index + 1).join(sep));

describe('project scope: a link that leaves the project is refused', () => {
  const files = projectFiles();
  it('the client table has the project files this test expects', () => {
    for (const path of [
      '.mcp.json',
      '.vscode/mcp.json',
      '.cursor/mcp.json',
      '.codex/config.toml',
      '.kiro/settings/mcp.json',
      '.vs/mcp.json',
    ]) {
      assert.ok(
        files.some((file) => file.path === path.split('/').join(sep)),
        path,
      );
    }
  });
  for (const file of files) {
    for (const at of linkPoints(file.path)) {
      it(`${file.client} (${file.scope}) ${file.path}: link at ${at}`, async () => {
        const home = await tempDir('svcctl-plinks-home-');
        const outside = await tempDir('svcctl-plinks-outside-');
        const project = join(home, 'proj');
        // The link's target holds the rest of the path, so that following it would find a file to edit.
        const target = join(outside, 'target');
        const victim = join(target, relative(at, file.path));
        await mkdir(dirname(victim), { recursive: true });
        await writeFile(victim, victimText(file.path));
        const linkPath = join(project, at);
        await mkdir(dirname(linkPath), { recursive: true });
        await symlink(target, linkPath);
        const before = await readFile(victim);
        for (const args of [[...installArgs(file), '--dry-run'], installArgs(file), uninstallArgs(file)]) {
          const result = await runCli(args, { home, cwd: project, env: ENV });
          assert.equal(result.code, 7, `${args.join(' ')}\n${result.stderr}`);
          assert.ok(
            result.stderr.includes(`${linkPath} is a symbolic link to ${target}, outside the project ${project}`),
            result.stderr,
          );
          assert.match(result.stderr, /hint: remove the link/);
          assert.deepEqual(await readFile(victim), before, 'the file outside the project was changed');
        }
        assert.deepEqual(await backupsUnder(project), []);
        assert.deepEqual(await backupsUnder(outside), []);
        assert.ok((await lstat(linkPath)).isSymbolicLink(), 'the link itself was replaced');
      });
    }
  }
});

it('project scope: a dangling link (.vscode to a folder that does not exist) is refused, naming where it points', async () => {
  const home = await tempDir('svcctl-plinks-home-');
  const project = join(home, 'proj');
  await mkdir(project);
  const nowhere = join(await tempDir('svcctl-plinks-outside-'), 'not-yet');
  await symlink(nowhere, join(project, '.vscode'));
  const result = await runCli(
    ['mcp', 'install', '--client', 'vscode', '--scope', 'project', '--mode', 'remote', '--mcp-url', MCP_URL],
    { home, cwd: project, env: ENV },
  );
  assert.equal(result.code, 7, result.stderr);
  assert.ok(
    result.stderr.includes(`${join(project, '.vscode')} is a symbolic link to ${nowhere}, which does not exist`),
    result.stderr,
  );
  await assert.rejects(lstat(nowhere), { code: 'ENOENT' });
});

describe('project scope: links that stay inside the project', () => {
  it('a link at the file to another file of the project is written through, and the message names it', async () => {
    const home = await tempDir('svcctl-plinks-home-');
    const project = join(home, 'proj');
    await mkdir(join(project, 'shared'), { recursive: true });
    const real = join(project, 'shared', 'mcp.json');
    await writeFile(real, '{ "mcpServers": {} }\n');
    await symlink(join('shared', 'mcp.json'), join(project, '.mcp.json'));
    const result = await runCli(
      ['mcp', 'install', '--client', 'claude-code', '--scope', 'project', '--mode', 'remote', '--mcp-url', MCP_URL],
      { home, cwd: project, env: ENV },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.ok(result.stderr.includes(`${join(project, '.mcp.json')} (a link to ${real})`), result.stderr);
    assert.equal(JSON.parse(await readFile(real, 'utf8')).mcpServers.service.url, MCP_URL);
    assert.ok((await lstat(join(project, '.mcp.json'))).isSymbolicLink());
  });

  it('a folder link inside the project (.cursor -> config/cursor) is written through', async () => {
    const home = await tempDir('svcctl-plinks-home-');
    const project = join(home, 'proj');
    await mkdir(join(project, 'config', 'cursor'), { recursive: true });
    await symlink(join(project, 'config', 'cursor'), join(project, '.cursor'));
    const result = await runCli(
      ['mcp', 'install', '--client', 'cursor', '--scope', 'project', '--mode', 'remote', '--mcp-url', MCP_URL],
      { home, cwd: project, env: ENV },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      JSON.parse(await readFile(join(project, 'config', 'cursor', 'mcp.json'), 'utf8')).mcpServers.service.url,
      MCP_URL,
    );
  });
});

describe('user scope: a link is followed (dotfiles managers)', () => {
  it('the config is written through the link, and the message names the real file', async () => {
    const home = await tempDir('svcctl-plinks-home-');
    const real = join(home, 'dotfiles', 'cursor-mcp.json');
    await mkdir(dirname(real), { recursive: true });
    await writeFile(real, '{ "mcpServers": {} }\n');
    await mkdir(join(home, '.cursor'));
    await symlink(real, join(home, '.cursor', 'mcp.json'));
    const result = await runCli(['mcp', 'install', '--client', 'cursor', '--mode', 'remote', '--mcp-url', MCP_URL], {
      home,
      env: ENV,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.ok(result.stderr.includes(`${join(home, '.cursor', 'mcp.json')} (a link to ${real})`), result.stderr);
    assert.equal(JSON.parse(await readFile(real, 'utf8')).mcpServers.service.url, MCP_URL);
  });
});

describe("svcctl's own files are never a target", () => {
  const CREDENTIALS =
    '{"version":1,"tokens":{"https://acme.example.com/api":{"access_token":"eyJ.own-token-4f2a","email":"a@example.com","expires_at":null,"saved_at":"2026-11-25T00:00:00Z"}}}\n';
  const CONFIG = '# mine\ndefault = "acme"\n\n[deployments."acme"]\nbase_url = "https://acme.example.com/api"\n';

  /** A temp HOME with svcctl's credentials.json and config.toml (0600, as svcctl writes them). */
  async function homeWithOwnFiles(): Promise<{ home: string; own: Record<'credentials' | 'config', string> }> {
    const home = await tempDir('svcctl-own-home-');
    const folder = join(home, '.config', 'svcctl');
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const own = { credentials: join(folder, 'credentials.json'), config: join(folder, 'config.toml') };
    await writeFile(own.credentials, CREDENTIALS, { mode: 0o600 });
    await writeFile(own.config, CONFIG, { mode: 0o600 });
    await mkdir(join(home, 'proj'));
    return { home, own };
  }

  async function assertRefused(
    home: string,
    args: string[],
    cwd: string,
    own: Record<'credentials' | 'config', string>,
    says: RegExp,
  ): Promise<void> {
    for (const run of [[...args, '--dry-run'], args]) {
      const result = await runCli(run, { home, cwd, env: ENV });
      assert.equal(result.code, 7, `${run.join(' ')}\n${result.stderr}`);
      assert.match(result.stderr, says);
      assert.match(result.stderr, /never change svcctl's own files/);
      assert.doesNotMatch(result.stderr + result.stdout, /own-token-4f2a/);
    }
    assert.equal(await readFile(own.credentials, 'utf8'), CREDENTIALS);
    assert.equal(await readFile(own.config, 'utf8'), CONFIG);
    assert.deepEqual(await backupsUnder(home), []);
  }

  for (const which of ['credentials', 'config'] as const) {
    it(`project scope: .mcp.json as a link to ${which}`, async () => {
      const { home, own } = await homeWithOwnFiles();
      const link = join(home, 'proj', '.mcp.json');
      await symlink(own[which], link);
      const args = projectInstall('--mode', 'remote', '--mcp-url', MCP_URL);
      await assertRefused(home, args, join(home, 'proj'), own, new RegExp(`${link} leads to ${own[which]}`));
      await assertRefused(
        home,
        ['mcp', 'uninstall', '--client', 'claude-code', '--scope', 'project'],
        join(home, 'proj'),
        own,
        /leads to/,
      );
    });

    it(`user scope: ~/.cursor/mcp.json as a link to ${which}`, async () => {
      const { home, own } = await homeWithOwnFiles();
      await mkdir(join(home, '.cursor'));
      await symlink(own[which], join(home, '.cursor', 'mcp.json'));
      await assertRefused(
        home,
        ['mcp', 'install', '--client', 'cursor', '--mode', 'remote', '--mcp-url', MCP_URL],
        home,
        own,
        /leads to .*in svcctl's own folder/,
      );
    });
  }

  it('--config naming config.toml itself, and a hard link to credentials.json in the project', async () => {
    const { home, own } = await homeWithOwnFiles();
    await assertRefused(
      home,
      ['mcp', 'install', '--format', 'toml', '--config', own.config, '--mode', 'remote', '--mcp-url', MCP_URL],
      home,
      own,
      /config\.toml is in svcctl's own folder/,
    );
    await link(own.credentials, join(home, 'proj', '.mcp.json'));
    const args = projectInstall('--mode', 'remote', '--mcp-url', MCP_URL);
    await assertRefused(
      home,
      args,
      join(home, 'proj'),
      own,
      /\.mcp\.json is svcctl's own .*credentials\.json \(a hard link to it\)/,
    );
  });
});
