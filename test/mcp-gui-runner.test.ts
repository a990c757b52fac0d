/**
 * Entries for GUI clients whose PATH is the desktop session's (Claude Desktop, LM Studio): when npx is in a
 * version manager's folder (a fake nvm or fnm layout in the temp HOME, first on the test's PATH), install writes
 * its absolute path with its folder first on PATH; doctor looks npx up with the PATH the client would give.
 */
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { claudeDesktop } from '../src/mcp/clients/claude-desktop.js';
import { guiRunnerCheck } from '../src/mcp/doctor/start-environment.js';
import { runCli, type RunResult } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

// launchd's PATH for apps on macOS and systemd's for the user manager on Linux (docs/mcp-gui.md).
const SESSION_PATH: Record<string, string> = {
  darwin: '/usr/bin:/bin:/usr/sbin:/sbin',
  linux: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
};
const sessionPath = SESSION_PATH[process.platform];
const CREDS = {
  SERVICE_EMAIL: 'gui@example.com',
  SERVICE_PASSWORD: 'gui-Secret-1',
  SERVICE_BASE_URL: 'https://x.example/api',
};

async function executable(file: string, text: string): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, text);
  await chmod(file, 0o755);
}

/** ~/.nvm/versions/node/<v>/bin with node and npx (scripts that fail: nothing here runs them for real). */
async function fakeNvm(home: string, version = 'v22.11.0'): Promise<string> {
  const bin = join(home, '.nvm', 'versions', 'node', version, 'bin');
  await executable(join(bin, 'node'), '#!/bin/sh\nexit 3\n');
  await executable(join(bin, 'npx'), '#!/usr/bin/env node\n');
  return bin;
}

const entryOf = async (
  home: string,
  file: string,
): Promise<Record<string, unknown> & { env: Record<string, string> }> =>
  JSON.parse(await readFile(join(home, file), 'utf8')).mcpServers.service;

const DESKTOP_FILE =
  process.platform === 'darwin'
    ? 'Library/Application Support/Claude/claude_desktop_config.json'
    : '.config/Claude/claude_desktop_config.json';
const lineOf = (result: RunResult, name: string): string =>
  result.stdout.split('\n').find((line) => line.slice(2).startsWith(`${name}:`)) ?? '';

describe('mcp install: npx for GUI clients that get the session PATH', { skip: sessionPath === undefined }, () => {
  it('Claude Desktop, npx from nvm: the absolute path, with its folder first on PATH, and a note', async () => {
    const home = await tempDir('svcctl-gui-');
    const bin = await fakeNvm(home);
    const env = { ...CREDS, PATH: `${bin}:/usr/bin:/bin` };
    const result = await runCli(['mcp', 'install', '--client', 'claude-desktop'], { home, env });
    assert.equal(result.code, 0, result.stderr);
    const entry = await entryOf(home, DESKTOP_FILE);
    assert.equal(entry.command, join(bin, 'npx'));
    assert.deepEqual((entry.args as string[]).slice(0, 1), ['-y']);
    assert.equal(entry.env.PATH, `${bin}:${sessionPath}`);
    assert.match(
      result.stderr,
      new RegExp(`npx is at ${join(bin, 'npx').replaceAll('.', '\\.')}, outside the PATH Claude Desktop gets`),
    );
  });

  it('proxy mode too: mcp-remote runs through the same absolute npx', async () => {
    const home = await tempDir('svcctl-gui-');
    const bin = await fakeNvm(home);
    const env = {
      SERVICE_MCP_URL: 'https://x.example/mcp',
      SERVICE_PASSWORD: 'p',
      SERVICE_EMAIL: 'e@x.example',
      PATH: `${bin}:/usr/bin`,
    };
    const result = await runCli(['mcp', 'install', '--client', 'lm-studio', '--mode', 'proxy'], { home, env });
    assert.equal(result.code, 0, result.stderr);
    const entry = await entryOf(home, join('.lmstudio', 'mcp.json'));
    assert.equal(entry.command, join(bin, 'npx'));
    assert.ok(
      (entry.args as string[]).some((arg) => arg.startsWith('mcp-remote')),
      String(entry.args),
    );
    assert.equal(entry.env.PATH, `${bin}:${sessionPath}`);
  });

  it("fnm's per-shell link is resolved: the entry names the installation, not fnm_multishells/<id>", async () => {
    const home = await tempDir('svcctl-gui-');
    const installation = join(home, '.local', 'share', 'fnm', 'node-versions', 'v22.11.0', 'installation');
    await executable(join(installation, 'bin', 'npx'), '#!/usr/bin/env node\n');
    const shells = join(home, '.local', 'state', 'fnm_multishells');
    await mkdir(shells, { recursive: true });
    await symlink(installation, join(shells, '4242_1732700000000'));
    const env = { ...CREDS, PATH: `${join(shells, '4242_1732700000000', 'bin')}:/usr/bin` };
    const result = await runCli(['mcp', 'install', '--client', 'claude-desktop'], { home, env });
    assert.equal(result.code, 0, result.stderr);
    const entry = await entryOf(home, DESKTOP_FILE);
    assert.equal(entry.command, join(installation, 'bin', 'npx'));
    assert.equal(entry.env.PATH, `${join(installation, 'bin')}:${sessionPath}`);
  });

  it("only where needed: VS Code (the login shell's environment) and npx on the session PATH keep plain npx", async () => {
    const home = await tempDir('svcctl-gui-');
    const bin = await fakeNvm(home);
    // The same layout gives Claude Desktop the absolute path, so the plain npx below is the rows' doing.
    const desktopHere = await runCli(['mcp', 'install', '--client', 'claude-desktop'], {
      home,
      env: { ...CREDS, PATH: `${bin}:/usr/bin` },
    });
    assert.equal(desktopHere.code, 0, desktopHere.stderr);
    assert.equal((await entryOf(home, DESKTOP_FILE)).command, join(bin, 'npx'));
    const vscode = await runCli(['mcp', 'install', '--client', 'vscode'], {
      home,
      env: { ...CREDS, PATH: `${bin}:/usr/bin` },
    });
    assert.equal(vscode.code, 0, vscode.stderr);
    const file =
      process.platform === 'darwin' ? 'Library/Application Support/Code/User/mcp.json' : '.config/Code/User/mcp.json';
    const written = JSON.parse(await readFile(join(home, file), 'utf8')).servers.service;
    assert.equal(written.command, 'npx');
    assert.equal(written.env.PATH, undefined);

    // npx in /usr/bin (on both platforms' session PATH), or none at all: the plain name stays.
    const system = await tempDir('svcctl-gui-');
    const desktop = await runCli(['mcp', 'install', '--client', 'claude-desktop'], {
      home: system,
      env: { ...CREDS, PATH: '/usr/bin:/bin' },
    });
    assert.equal(desktop.code, 0, desktop.stderr);
    const entry = await entryOf(system, DESKTOP_FILE);
    assert.ok(entry.command === 'npx', `npx on /usr/bin (or none) keeps the plain name, got ${String(entry.command)}`);
    assert.equal(entry.env.PATH, undefined);
  });
});

describe("mcp install --token helper for a GUI client, svcctl run from npx's cache", {
  skip: sessionPath === undefined,
}, () => {
  it('`npx -y svcctl@<version>` (Claude Desktop) runs through the absolute npx too; Goose, which sets its own PATH, keeps npx', async () => {
    const home = await tempDir('svcctl-gui-');
    const bin = await fakeNvm(home);
    const cached = join(home, '.npm', '_npx', '0a1b2c3d4e5f6789', 'node_modules', 'svcctl', 'bin', 'svcctl.js');
    const install = (client: string) =>
      runCli(['mcp', 'install', '--client', client, '--mode', 'proxy', '--auth', 'bearer', '--token', 'helper'], {
        home,
        env: { SERVICE_BASE_URL: 'https://x.example/api', PATH: `${bin}:/usr/bin` },
        script: cached,
      });
    const desktop = await install('claude-desktop');
    assert.equal(desktop.code, 0, desktop.stderr);
    const entry = await entryOf(home, DESKTOP_FILE);
    assert.equal(entry.command, join(bin, 'npx'));
    assert.match((entry.args as string[]).slice(0, 2).join(' '), /^-y svcctl@/);
    assert.equal(entry.env.PATH, `${bin}:${sessionPath}`);

    const goose = await install('goose');
    assert.equal(goose.code, 0, goose.stderr);
    const file = await readFile(join(home, '.config', 'goose', 'config.yaml'), 'utf8');
    const extension = (parseYaml(file) as { extensions: Record<string, Record<string, unknown>> }).extensions.service!;
    assert.equal(extension.cmd, 'npx', 'Goose drops envs.PATH, so an absolute npx would start without its node');
    assert.equal((extension.envs as Record<string, string> | undefined)?.PATH, undefined);
  });
});

describe('mcp doctor: the runner as the GUI client finds it', { skip: sessionPath === undefined }, () => {
  it('a plain npx entry for Claude Desktop with npx only in nvm: runner fails and names the reinstall', async () => {
    const home = await tempDir('svcctl-gui-');
    const bin = await fakeNvm(home);
    const file = join(home, DESKTOP_FILE);
    await mkdir(join(file, '..'), { recursive: true });
    const entry = {
      command: 'npx',
      args: ['-y', 'service-mcp-server@latest'],
      env: { SERVICE_EMAIL: 'a@b.example', SERVICE_PASSWORD: 'pw-gui-9' },
    };
    await writeFile(file, JSON.stringify({ mcpServers: { service: entry } }));
    // No npx on the session PATH: a folder of the test stands in for it where the machine has one in /usr/bin.
    // npm offline: the real npx, where the machine has one, fetches nothing and fails at once.
    const env = { PATH: `${bin}:/usr/bin:/bin`, NPM_CONFIG_OFFLINE: 'true' };
    const result = await runCli(['mcp', 'doctor', '--client', 'claude-desktop'], { home, env });
    const systemHasNpx = await readFile('/usr/bin/npx').then(
      () => true,
      () => false,
    );
    if (systemHasNpx) {
      assert.match(lineOf(result, 'runner'), /^✓ runner: npx found at \/usr\/bin\/npx \(Claude Desktop started from/);
      return;
    }
    assert.match(
      lineOf(result, 'runner'),
      new RegExp(
        `^✗ runner: npx is at ${join(bin, 'npx').replaceAll('.', '\\.')} on your shell's PATH, but Claude Desktop started from .* gives it PATH=${sessionPath}, where there is none$`,
      ),
    );
    assert.match(result.stdout, /fix: svcctl mcp install --client claude-desktop --force/);
  });

  // The test above reaches its ✗ only where /usr/bin has no npx; this one gives the check a session PATH without it.
  it('the runner check, with a session PATH that has no npx: fails and names the reinstall', async () => {
    const home = await tempDir('svcctl-gui-');
    const bin = await fakeNvm(home);
    const session = await tempDir('svcctl-gui-session-');
    const command = { command: 'npx', args: ['-y', 'service-mcp-server@latest'], env: {}, forwarded: [] };
    const start = { env: { PATH: session }, platform: 'linux' as const, cwd: home };
    const shell = { env: { PATH: `${bin}:${session}` }, platform: 'linux' as const, cwd: home };
    const result = await guiRunnerCheck(command, start, shell, claudeDesktop);
    assert.equal(result?.ok, false, JSON.stringify(result));
    assert.equal(
      result.detail,
      `npx is at ${join(bin, 'npx')} on your shell's PATH, but Claude Desktop started from the desktop launcher gives it PATH=${session}, where there is none`,
    );
    assert.match(result.fix ?? '', /^svcctl mcp install --client claude-desktop --force/);
  });

  it('an entry with the absolute npx and no PATH for its node: runner fails (#!/usr/bin/env node finds none)', async () => {
    const home = await tempDir('svcctl-gui-');
    const bin = await fakeNvm(home);
    const file = join(home, DESKTOP_FILE);
    await mkdir(join(file, '..'), { recursive: true });
    const bare = {
      command: join(bin, 'npx'),
      args: ['-y', 'service-mcp-server@latest'],
      env: { PATH: '/nonexistent-gui-dir' },
    };
    await writeFile(file, JSON.stringify({ mcpServers: { service: bare } }));
    const result = await runCli(['mcp', 'doctor', '--client', 'claude-desktop'], {
      home,
      env: { PATH: `${bin}:/usr/bin` },
    });
    assert.match(
      lineOf(result, 'runner'),
      /^✗ runner: .*\/npx needs node, but Claude Desktop started from .* gives it PATH=\/nonexistent-gui-dir, where there is none$/,
    );

    const withNode = { ...bare, env: { PATH: `${bin}:/nonexistent-gui-dir` } };
    await writeFile(file, JSON.stringify({ mcpServers: { service: withNode } }));
    const fixed = await runCli(['mcp', 'doctor', '--client', 'claude-desktop'], {
      home,
      env: { PATH: `${bin}:/usr/bin` },
    });
    assert.match(
      lineOf(fixed, 'runner'),
      new RegExp(`^✓ runner: npx found at ${join(bin, 'npx').replaceAll('.', '\\.')} `),
    );
    // The fake node exits 3: the absolute npx is still read as npx, so the line names the package.
    assert.match(lineOf(fixed, 'initialize'), /^✗ initialize: service-mcp-server@latest fails: `\/.*\/npx -y /);
  });
});
