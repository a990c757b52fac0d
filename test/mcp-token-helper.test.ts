/**
 * `mcp install --auth bearer --token helper`, in-process against a sandbox: the `svcctl mcp proxy` entry of a client
 * without a headers command (this svcctl by its path, or `npx -y svcctl@<version>` when it runs from npx's cache), and
 * the refusals. Entries whose helper a client or `mcp doctor` runs as a process: token-helper.e2e.test.ts.
 */
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { cp, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BIN, ROOT, runCli } from './helpers/cli.js';
import { VERSION } from '../src/core/version.js';
import { startDev, type DevServer } from './helpers/dev-sandbox.js';
import { tempDir } from './helpers/temp-dirs.js';

/** This clone's svcctl script, as an entry names it (links resolved). */
const SCRIPT = realpathSync(BIN);

/** The built package (bin, dist, package.json) copied to `dir`, as an install or npx's cache holds it; its script. */
async function copyPackage(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (const part of ['bin', 'dist', 'package.json']) await cp(join(ROOT, part), join(dir, part), { recursive: true });
  return join(dir, 'bin', 'svcctl.js');
}

describe('mcp install --auth bearer --token helper: entries and refusals', { concurrency: true }, () => {
  let dev: DevServer;
  before(async () => {
    dev = await startDev(['--user', 'helper-user@example.com:he1per-Pa55word']);
  });
  after(async () => {
    await dev?.stop();
  });

  it('a client without a headers command gets a `svcctl mcp proxy` entry that runs this svcctl by its path (a clone)', async () => {
    const home = await tempDir();
    const env = { SERVICE_BASE_URL: dev.ready.base_url };
    const install = await runCli(
      [
        'mcp',
        'install',
        '--client',
        'gemini',
        '--client',
        'codex',
        '--mode',
        'proxy',
        '--auth',
        'bearer',
        '--token',
        'helper',
      ],
      { home, env },
    );
    assert.equal(install.code, 0, install.stderr);
    assert.match(install.stderr, /The entry runs this svcctl by its path/);
    assert.match(
      install.stderr,
      /You are not logged in: until you run `svcctl login --save`, the entry has no token to send/,
    );
    // Without a password in a keychain nothing logs in again: the notes never promise a fresh token.
    assert.match(install.stderr, /which forwards to \S+ with svcctl's saved token\./);
    assert.doesNotMatch(install.stderr, /fresh token|never goes stale|never a stale/);
    const gemini = JSON.parse(await readFile(join(home, '.gemini', 'settings.json'), 'utf8')).mcpServers.service;
    assert.deepEqual(gemini, {
      command: process.execPath,
      args: [SCRIPT, '--base-url', dev.ready.base_url, 'mcp', 'proxy'],
      timeout: 600_000, // Gemini CLI's documented default request timeout (docs/mcp.md)
    });
    const codex = await readFile(join(home, '.codex', 'config.toml'), 'utf8');
    assert.ok(codex.includes(`command = ${JSON.stringify(process.execPath)}\n`), codex);
    assert.ok(
      codex.includes(`args = [ ${JSON.stringify(SCRIPT)}, "--base-url", "${dev.ready.base_url}", "mcp", "proxy" ]`),
      codex,
    );
  });

  it('a client that reads no variables (Claude Desktop: literal secrets) still takes a helper entry while not logged in', async () => {
    const home = await tempDir();
    const install = await runCli(
      ['mcp', 'install', '--client', 'claude-desktop', '--mode', 'proxy', '--auth', 'bearer', '--token', 'helper'],
      { home, env: { SERVICE_BASE_URL: dev.ready.base_url } },
    );
    assert.equal(install.code, 0, install.stderr);
    const file = join(home, '.config', 'Claude', 'claude_desktop_config.json');
    const entry = JSON.parse(await readFile(file, 'utf8')).mcpServers.service;
    assert.equal(entry.command, process.execPath);
    assert.deepEqual(entry.args, [SCRIPT, '--base-url', dev.ready.base_url, 'mcp', 'proxy']);
  });

  it("run from npx's cache: the entry runs `npx -y svcctl@<this version>`", async () => {
    const home = await tempDir();
    const cached = await copyPackage(
      join(await tempDir(), '.npm', '_npx', '0a1b2c3d4e5f6789', 'node_modules', 'svcctl'),
    );
    const env = { SERVICE_BASE_URL: dev.ready.base_url };
    const install = await runCli(
      ['mcp', 'install', '--client', 'gemini', '--mode', 'proxy', '--auth', 'bearer', '--token', 'helper'],
      { home, env, script: cached },
    );
    assert.equal(install.code, 0, install.stderr);
    assert.match(
      install.stderr,
      new RegExp(`svcctl runs from npx's cache, so the entry runs \`npx -y svcctl@${VERSION.replace(/\./g, '\\.')}\``),
    );
    const gemini = JSON.parse(await readFile(join(home, '.gemini', 'settings.json'), 'utf8')).mcpServers.service;
    assert.deepEqual(gemini, {
      command: 'npx',
      args: ['-y', `svcctl@${VERSION}`, '--base-url', dev.ready.base_url, 'mcp', 'proxy'],
      timeout: 600_000, // Gemini CLI's documented default request timeout (docs/mcp.md)
    });
  });

  it('--token is for --auth bearer; --token helper with --format is refused', async () => {
    const home = await tempDir();
    const env = { SERVICE_BASE_URL: dev.ready.base_url };
    const password = await runCli(['mcp', 'print', '--client', 'gemini', '--mode', 'remote', '--token', 'helper'], {
      home,
      env,
    });
    assert.equal(password.code, 2);
    assert.match(password.stderr, /--token is for --auth bearer/);
    const generic = await runCli(
      [
        'mcp',
        'print',
        '--config',
        join(home, 'x.json'),
        '--format',
        'mcpServers',
        '--mode',
        'remote',
        '--auth',
        'bearer',
        '--token',
        'helper',
      ],
      { home, env },
    );
    assert.equal(generic.code, 2);
    assert.match(generic.stderr, /--token helper is for --client/);
    const codexAdd = await runCli(
      ['mcp', 'command', '--client', 'codex', '--mode', 'remote', '--auth', 'bearer', '--token', 'helper'],
      { home, env },
    );
    assert.equal(codexAdd.code, 2);
    assert.match(codexAdd.stderr, /`codex mcp add` has no option for http_headers_helper/);
  });
});

describe('the token helper in the YAML clients with a shape of their own', () => {
  it("Goose gets a stdio extension (type, cmd, envs) and Continue a named mcpServers item: each client's own form", async () => {
    const home = await tempDir('svcctl-helper-yaml-');
    const install = (client: string) =>
      runCli(['mcp', 'install', '--client', client, '--mode', 'proxy', '--auth', 'bearer', '--token', 'helper'], {
        home,
        env: { SERVICE_BASE_URL: 'https://x.example/api' },
      });
    for (const client of ['goose', 'continue']) assert.equal((await install(client)).code, 0, client);
    const { parse } = await import('yaml');
    const goose = parse(await readFile(join(home, '.config', 'goose', 'config.yaml'), 'utf8')).extensions.service;
    // Goose's ExtensionConfig::Stdio (aaif-goose/goose crates/goose/src/agents/extension.rs): a `type` tag, cmd, args.
    assert.equal(goose.type, 'stdio');
    assert.equal(goose.name, 'service');
    assert.equal(goose.cmd, process.execPath);
    assert.deepEqual(goose.args.slice(-2), ['mcp', 'proxy']);
    assert.equal(goose.command, undefined);
    const servers = parse(await readFile(join(home, '.continue', 'config.yaml'), 'utf8')).mcpServers;
    assert.equal(servers.length, 1);
    assert.equal(servers[0].name, 'service');
    assert.deepEqual(servers[0].args.slice(-2), ['mcp', 'proxy']);
  });
});
