/**
 * Nothing from the current folder is run or used as the user's own (issue 47): a cloned project (a temp folder with
 * a .git) plants programs on a relative PATH entry and on one into the project, and folders that relative
 * CODEX_HOME, SERVICE_SPOOL_DIR and XDG_* would name. The programs record whether they ran.
 * The compile cache of the same issue: compile-cache.test.ts and startup.e2e.test.ts.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, realpath, rm, symlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, it } from 'node:test';
import { FOLDER_VARIABLES, withoutRelativeFolders } from '../src/config/folder-variables.js';
import { searchFolders } from '../src/fs/path-search.js';
import { placeFile, runCli } from './helpers/cli.js';
import { accepted, startRecordingServer } from './helpers/recording-server.js';
import { spoolFolderFor } from './helpers/spool-layout.js';
import { tempDir } from './helpers/temp-dirs.js';

interface Clone {
  home: string;
  clone: string;
  /** A folder of tools outside the project, for the control case. */
  tools: string;
  ran: string;
}

/** A home, a clone (a project: it has .git) and a tools folder, whose programs note in `ran/` that they ran (as
 * `clone-<name>` or `tools-<name>`). */
async function cloneWithPrograms(...programs: Array<[where: 'clone' | 'tools', path: string]>): Promise<Clone> {
  const made: Clone = {
    home: await tempDir('svcctl-folder-home-'),
    clone: await tempDir('svcctl-clone-'),
    tools: await tempDir('svcctl-tools-'),
    ran: await tempDir('svcctl-ran-'),
  };
  await mkdir(join(made.clone, '.git'));
  for (const [where, path] of programs) {
    const name = basename(path);
    const file = await placeFile(
      made[where],
      path,
      `#!/bin/sh\n: > '${join(made.ran, `${where}-${name}`)}'\necho '${name} 9.9.9'\n`,
    );
    await chmod(file, 0o755);
  }
  return made;
}

const ranPrograms = (clone: Clone, names: string[]): string[] =>
  names.filter((name) => existsSync(join(clone.ran, name)));

describe('PATH: programs are looked for only in absolute folders outside the current project', () => {
  it("`mcp clients` runs neither a relative entry's codex nor the project's node_modules/.bin claude", async () => {
    const made = await cloneWithPrograms(
      ['clone', 'bin/codex'],
      ['clone', 'node_modules/.bin/claude'],
      ['tools', 'gemini'],
    );
    const path = ['bin', join(made.clone, 'node_modules', '.bin'), made.tools, '/usr/bin', '/bin'];
    const result = await runCli(['mcp', 'clients'], {
      home: made.home,
      cwd: made.clone,
      env: { PATH: path.join(':') },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(ranPrograms(made, ['clone-codex', 'clone-claude']), []);
    // The control: an absolute folder outside the project is searched, and its program ran.
    assert.deepEqual(ranPrograms(made, ['tools-gemini']), ['tools-gemini']);
  });

  it("`mcp install --client lm-studio --mode local` writes the npx of no folder of the project's", async () => {
    const made = await cloneWithPrograms(['clone', 'bin/npx'], ['tools', 'npx']);
    const env = {
      SERVICE_BASE_URL: 'https://acme.example.com/api',
      PATH: ['bin', join(made.clone, 'bin'), made.tools, '/usr/bin', '/bin'].join(':'),
    };
    const args = ['mcp', 'install', '--client', 'lm-studio', '--mode', 'local'];
    const result = await runCli(args, {
      home: made.home,
      cwd: made.clone,
      env: { ...env, LMSTUDIO_HOME: made.home, SERVICE_EMAIL: 'ops@acme.example', SERVICE_PASSWORD: 'pw-folder-1' },
    });
    assert.equal(result.code, 0, result.stderr);
    const written = await readFile(join(made.home, 'mcp.json'), 'utf8');
    assert.ok(!written.includes(made.clone), written);
    assert.ok(written.includes(join(await realpath(made.tools), 'npx')), written);
  });
});

describe('mcp doctor starts a command by name from no folder of the project', () => {
  it("an entry of the user's `server`: the project's bin/server on PATH first does not run, the one outside does", async () => {
    const made = await cloneWithPrograms(['clone', 'bin/server'], ['tools', 'server']);
    await placeFile(made.home, '.codex/config.toml', '[mcp_servers.service]\ncommand = "server"\nargs = []\n');
    const PATH = ['bin', join(made.clone, 'bin'), made.tools, '/usr/bin', '/bin'].join(':');
    const result = await runCli(['mcp', 'doctor', '--client', 'codex', '--scope', 'user'], {
      home: made.home,
      cwd: made.clone,
      env: { PATH },
    });
    assert.match(result.stdout, new RegExp(`✓ runner: server found at ${made.tools}/server`), result.stdout);
    assert.deepEqual(ranPrograms(made, ['clone-server', 'tools-server']), ['tools-server']);
  });
});

describe('searchFolders', () => {
  it('drops relative entries and those into the project; a home kept in git is no project', async () => {
    const home = await tempDir('svcctl-git-home-');
    const project = join(home, 'src', 'app');
    await mkdir(join(project, '.git'), { recursive: true });
    const env = {
      HOME: home,
      PATH: ['.', 'node_modules/.bin', join(project, 'bin'), join(home, 'bin'), '/usr/bin'].join(':'),
    };
    const place = { env, platform: 'linux' as const, cwd: join(project, 'lib') };
    assert.deepEqual(searchFolders(place), [join(home, 'bin'), '/usr/bin']);
    await mkdir(join(home, '.git'));
    await rm(join(project, '.git'), { recursive: true });
    assert.deepEqual(searchFolders(place), [join(project, 'bin'), join(home, 'bin'), '/usr/bin']);
  });

  it("drops the project's folders named through a link too: the shell's logical PWD against the real cwd", async () => {
    // process.cwd() is the real path; direnv's PATH_add writes $PWD, which keeps the link the user cd'ed through.
    const real = await realpath(await tempDir('svcctl-real-'));
    const project = join(real, 'app');
    await mkdir(join(project, '.git'), { recursive: true });
    const link = join(await tempDir('svcctl-link-'), 'code');
    await symlink(real, link);
    const env = { HOME: '/nonexistent-home', PATH: [join(link, 'app', 'bin'), '/usr/bin'].join(':') };
    assert.deepEqual(searchFolders({ env, platform: 'linux', cwd: project }), ['/usr/bin']);
    const logical = { env: { ...env, PATH: [join(project, 'bin'), '/usr/bin'].join(':') }, cwd: join(link, 'app') };
    assert.deepEqual(searchFolders({ ...logical, platform: 'linux' }), ['/usr/bin']);
  });
});

describe('a relative folder variable is ignored, with one warning', () => {
  it('every folder variable: relative dropped and said, absolute and unset kept; XDG_DATA_DIRS member by member', () => {
    const env: NodeJS.ProcessEnv = { PATH: 'bin', XDG_DATA_DIRS: '/usr/share:share:/opt/share' };
    for (const name of FOLDER_VARIABLES) env[name] = `.${name.toLowerCase()}`;
    const { env: kept, warnings } = withoutRelativeFolders(env, 'linux');
    assert.deepEqual(kept, { PATH: 'bin', XDG_DATA_DIRS: '/usr/share:/opt/share' });
    assert.equal(warnings.length, FOLDER_VARIABLES.length + 1);
    assert.match(warnings[0]!, /^XDG_CONFIG_HOME="\.xdg_config_home" is not an absolute path: ignored/);
    const absolute = { CODEX_HOME: '/home/u/.codex', XDG_STATE_HOME: '' };
    assert.equal(withoutRelativeFolders(absolute, 'linux').env, absolute);
    assert.deepEqual(withoutRelativeFolders({ APPDATA: 'C:\\Users\\u\\AppData' }, 'win32').warnings, []);
  });

  it("CODEX_HOME=.codex: the user's ~/.codex is written, not the clone's, and the warning comes once", async () => {
    const clone = await cloneWithPrograms();
    const planted = await placeFile(clone.clone, '.codex/config.toml', "# the project's\n");
    const env = { SERVICE_BASE_URL: 'https://acme.example.com/api', CODEX_HOME: '.codex' };
    const result = await runCli(['mcp', 'install', '--client', 'codex', '--mode', 'remote'], {
      home: clone.home,
      cwd: clone.clone,
      env,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(await readFile(planted, 'utf8'), "# the project's\n");
    assert.match(await readFile(join(clone.home, '.codex', 'config.toml'), 'utf8'), /^\[mcp_servers\.service\]$/m);
    assert.equal(result.stderr.split('CODEX_HOME=".codex" is not an absolute path: ignored').length, 2, result.stderr);
  });

  it("CODEX_HOME=$PWD/.codex (absolute, into the project): its link to another tool's file is not written through", async () => {
    const clone = await cloneWithPrograms();
    const cargo = await placeFile(clone.home, '.cargo/config.toml', '[build]\njobs = 2\n');
    await mkdir(join(clone.clone, '.codex'));
    await symlink(cargo, join(clone.clone, '.codex', 'config.toml'));
    const env = { SERVICE_BASE_URL: 'https://acme.example.com/api', CODEX_HOME: join(clone.clone, '.codex') };
    const args = ['mcp', 'install', '--client', 'codex', '--mode', 'remote'];
    const result = await runCli(args, { home: clone.home, cwd: clone.clone, env });
    assert.equal(result.code, 7, result.stderr);
    assert.match(result.stderr, /is a symbolic link to .*\.cargo\/config\.toml, outside the project/);
    assert.equal(await readFile(cargo, 'utf8'), '[build]\njobs = 2\n');
  });

  it('CODEX_HOME=$PWD/.codex: `mcp doctor` does not run the entries of that file unasked', async () => {
    const clone = await cloneWithPrograms(['tools', 'server']);
    const entry = `[mcp_servers.service]\ncommand = "${join(clone.tools, 'server')}"\nargs = []\n`;
    await placeFile(clone.clone, '.codex/config.toml', entry);
    const env = { SERVICE_PASSWORD: 'pw-folder-7', CODEX_HOME: join(clone.clone, '.codex') };
    const doctor = ['mcp', 'doctor', '--client', 'codex', '--scope', 'user'];
    const result = await runCli(doctor, { home: clone.home, cwd: clone.clone, env });
    assert.equal(result.code, 8, result.stdout + result.stderr);
    assert.match(result.stdout, /✗ project entry: not run: 'service' comes with the project/);
    assert.deepEqual(ranPrograms(clone, ['tools-server']), []);
    // The same file as the home's own ~/.codex is the user's: doctor runs its entry.
    await placeFile(clone.home, '.codex/config.toml', entry);
    await runCli(doctor, { home: clone.home, cwd: clone.clone, env: {} });
    assert.deepEqual(ranPrograms(clone, ['tools-server']), ['tools-server']);
  });

  it('SERVICE_SPOOL_DIR=spool: `event flush` sends none of the events a clone planted there', async () => {
    const clone = await cloneWithPrograms();
    const server = await startRecordingServer(accepted);
    try {
      const planted = spoolFolderFor(join(clone.clone, 'spool'), server.baseUrl);
      const event = { event: { id: 'planted-1', title: 'planted', created_at: '2026-01-01T00:00:00.000Z' } };
      await placeFile(planted, 'planted-1.json', JSON.stringify(event));
      const env = { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 'tok-folder', SERVICE_SPOOL_DIR: 'spool' };
      const result = await runCli(['event', 'flush'], { home: clone.home, cwd: clone.clone, env });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /SERVICE_SPOOL_DIR="spool" is not an absolute path: ignored/);
      assert.equal(server.requests.length, 0);
      assert.ok(existsSync(join(planted, 'planted-1.json')));
    } finally {
      await server.close();
    }
  });

  it("XDG_CONFIG_HOME=.config: svcctl's config is the home's, not the clone's", async () => {
    const clone = await cloneWithPrograms();
    const planted = 'default = "planted"\n[deployments.planted]\nbase_url = "https://planted.example.com/api"\n';
    await placeFile(clone.clone, '.config/svcctl/config.toml', planted);
    const result = await runCli(['deployment', 'list'], {
      home: clone.home,
      cwd: clone.clone,
      env: { XDG_CONFIG_HOME: '.config' },
    });
    assert.ok(!result.stdout.includes('planted.example.com'), result.stdout);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /XDG_CONFIG_HOME="\.config" is not an absolute path: ignored/);
  });
});
