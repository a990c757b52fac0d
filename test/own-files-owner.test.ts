/**
 * config.toml chooses where passwords go and credentials.json which token is sent, so svcctl uses them
 * only when they and their folder are the user's alone, as the spool (and ssh with ~/.ssh): a folder or
 * file of another user (root included) or one that others can write is refused with exit 7, before
 * anything is sent or written. A real login server on 127.0.0.1 stands for the planted deployment, and
 * records whether the password reached it. "Another user" is uid 65534 (nobody), so those cases need root.
 */
import assert from 'node:assert/strict';
import { chmod, chown, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { EMAIL, PASSWORD, startLoginServer } from './helpers/login-server.js';
import { tempDir } from './helpers/temp-dirs.js';

const NOBODY = 65534;
const notRoot = process.getuid?.() === 0 ? false : 'needs root, to give a file to another user (chown nobody)';
const PLANTED_TOKEN = 'planted-token-7c1e';

interface Home {
  home: string;
  folder: string;
  config: string;
  credentials: string;
}

async function homeWithConfig(baseUrl: string): Promise<Home> {
  const home = await tempDir('svcctl-own-owner-');
  const folder = join(home, '.config', 'svcctl');
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const config = join(folder, 'config.toml');
  await writeFile(config, `default = "planted"\n[deployments.planted]\nbase_url = "${baseUrl}"\n`, { mode: 0o600 });
  return { home, folder, config, credentials: join(folder, 'credentials.json') };
}

const credentialsFor = (baseUrl: string): string =>
  JSON.stringify({
    version: 1,
    tokens: {
      [baseUrl]: { access_token: PLANTED_TOKEN, email: EMAIL, expires_at: null, saved_at: '2026-11-25T00:00:00Z' },
    },
  });

/** `svcctl login` with no base URL given: the default deployment of config.toml decides where the password goes. */
async function loginWithDefault(h: Home): Promise<{ code: number | null; stderr: string; sent: number }> {
  const server = await startLoginServer();
  try {
    await writeFile(h.config, `default = "planted"\n[deployments.planted]\nbase_url = "${server.baseUrl}"\n`);
    const result = await runCli(['login', '--email', EMAIL, '--password-stdin'], { home: h.home, input: PASSWORD });
    return { code: result.code, stderr: result.stderr, sent: server.requests.length };
  } finally {
    await server.close();
  }
}

function assertStopped(result: { code: number | null; stderr: string; sent: number }, says: RegExp): void {
  assert.equal(result.code, 7, result.stderr);
  assert.match(result.stderr, says);
  assert.match(result.stderr, /only when they are yours alone, so it stopped/);
  assert.equal(result.sent, 0, 'the password was not sent');
  assert.doesNotMatch(result.stderr, /internal error|\n\s+at /);
}

describe('config.toml and its folder', () => {
  it('as written: the folder and config.toml of another user, writable by all, send no password', {
    skip: notRoot,
  }, async () => {
    const h = await homeWithConfig('https://unused.example.com/api');
    await chown(h.config, NOBODY, NOBODY);
    await chmod(h.config, 0o666);
    await chown(h.folder, NOBODY, NOBODY);
    await chmod(h.folder, 0o777);
    const result = await loginWithDefault(h);
    assertStopped(
      result,
      new RegExp(`config folder ${h.folder} belongs to another user \\(uid ${NOBODY}; you are uid 0\\)`),
    );
    assert.match(result.stderr, new RegExp(`chown -R 0 '${h.folder}'`));
  });

  it('config.toml of another user in a folder of yours', { skip: notRoot }, async () => {
    const h = await homeWithConfig('https://unused.example.com/api');
    await chown(h.config, NOBODY, NOBODY);
    const result = await loginWithDefault(h);
    assertStopped(result, new RegExp(`${h.config} belongs to another user \\(uid ${NOBODY}; you are uid 0\\)`));
    assert.match(result.stderr, new RegExp(`rm '${h.config}'`));
  });

  it('a config.toml of yours that others can write', async () => {
    const h = await homeWithConfig('https://unused.example.com/api');
    await chmod(h.config, 0o666);
    const result = await loginWithDefault(h);
    assertStopped(result, /config\.toml can be written by other users \(mode 0666\)/);
    assert.match(result.stderr, new RegExp(`chmod 600 '${h.config}'`));
    const server = await startLoginServer();
    try {
      const args = ['login', '--save', '--base-url', server.baseUrl, '--email', EMAIL, '--password-stdin'];
      const save = await runCli(args, { home: h.home, input: PASSWORD });
      assertStopped({ ...save, sent: server.requests.length }, /config\.toml can be written by other users/);
      assert.deepEqual(await readdir(h.folder), ['config.toml'], 'no token saved');
    } finally {
      await server.close();
    }
  });

  it('a folder others can write: nothing read, and an edit leaves no file in it', async () => {
    const h = await homeWithConfig('https://unused.example.com/api');
    await chmod(h.folder, 0o777);
    assertStopped(await loginWithDefault(h), /config folder .*svcctl can be written by other users \(mode 0777\)/);
    const before = await readFile(h.config, 'utf8');
    const add = await runCli(['deployment', 'add', 'acme', 'https://acme.example.com/api'], { home: h.home });
    assert.equal(add.code, 7, add.stderr);
    assert.match(add.stderr, new RegExp(`chmod 700 '${h.folder}'`));
    assert.equal(await readFile(h.config, 'utf8'), before);
    assert.deepEqual(await readdir(h.folder), ['config.toml'], 'no lock, temp or backup file');
  });

  it('a link at the folder is followed: the folder it leads to is judged', async () => {
    const h = await homeWithConfig('https://unused.example.com/api');
    const dotfiles = await tempDir('svcctl-own-dotfiles-');
    await chmod(dotfiles, 0o777);
    const linked = join(h.home, 'linked-home');
    await mkdir(join(linked, '.config'), { recursive: true });
    await symlink(dotfiles, join(linked, '.config', 'svcctl'));
    await writeFile(join(dotfiles, 'config.toml'), await readFile(h.config, 'utf8'), { mode: 0o600 });
    const refused = await runCli(['deployment', 'list'], { home: linked });
    assert.equal(refused.code, 7, refused.stderr);
    assert.match(refused.stderr, /config folder .*svcctl can be written by other users \(mode 0777\)/);
    await chmod(dotfiles, 0o700);
    const listed = await runCli(['deployment', 'list'], { home: linked });
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /planted/);
  });
});

describe('credentials.json', () => {
  it('as written: planted by another user, mode 666, its token is not used', { skip: notRoot }, async () => {
    const server = await startLoginServer();
    try {
      const h = await homeWithConfig(server.baseUrl);
      await writeFile(h.credentials, credentialsFor(server.baseUrl), { mode: 0o666 });
      await chmod(h.credentials, 0o666);
      await chown(h.credentials, NOBODY, NOBODY);
      for (const args of [['token'], ['login', '--save', '--email', EMAIL, '--password-stdin']]) {
        const result = await runCli(args, { home: h.home, input: PASSWORD });
        assert.equal(result.code, 7, `${args.join(' ')}: ${result.stderr}`);
        assert.match(
          result.stderr,
          new RegExp(
            `the credentials file ${h.credentials} belongs to another user \\(uid ${NOBODY}; you are uid 0\\)`,
          ),
        );
        assert.match(result.stderr, /log in again with 'svcctl login --save'/);
        assert.doesNotMatch(result.stdout + result.stderr, new RegExp(PLANTED_TOKEN));
      }
      assert.equal(server.requests.length, 0, 'the password was not sent');
      assert.equal(await readFile(h.credentials, 'utf8'), credentialsFor(server.baseUrl));
    } finally {
      await server.close();
    }
  });

  it('planted with the only saved login, it does not choose where the password goes', { skip: notRoot }, async () => {
    const server = await startLoginServer();
    try {
      const home = await tempDir('svcctl-own-owner-');
      const folder = join(home, '.config', 'svcctl');
      await mkdir(folder, { recursive: true, mode: 0o700 });
      await writeFile(join(folder, 'credentials.json'), credentialsFor(server.baseUrl));
      await chmod(join(folder, 'credentials.json'), 0o666);
      await chown(join(folder, 'credentials.json'), NOBODY, NOBODY);
      const result = await runCli(['login', '--email', EMAIL, '--password-stdin'], { home, input: PASSWORD });
      assertStopped({ ...result, sent: server.requests.length }, /credentials\.json belongs to another user/);
    } finally {
      await server.close();
    }
  });

  it('a credentials file of yours that others can write is refused; one they can only read is a warning', async () => {
    const h = await homeWithConfig('https://acme.example.com/api');
    await writeFile(h.credentials, credentialsFor('https://acme.example.com/api'), { mode: 0o600 });
    await chmod(h.credentials, 0o666);
    const refused = await runCli(['token'], { home: h.home });
    assert.equal(refused.code, 7, refused.stderr);
    assert.match(refused.stderr, /credentials\.json can be written by other users \(mode 0666\)/);
    assert.equal(refused.stdout, '');
    await chmod(h.credentials, 0o644);
    const warned = await runCli(['token'], { home: h.home });
    assert.equal(warned.code, 0, warned.stderr);
    assert.equal(warned.stdout, `${PLANTED_TOKEN}\n`);
    assert.match(warned.stderr, /can be read by other users \(mode 644\)/);
  });
});
