/**
 * npx for GUI clients that start from the Start menu on Windows (Claude Desktop, LM Studio, Goose): install writes
 * the absolute npx after `cmd /c`, with its folder and Windows' system folders on the entry's PATH; doctor checks
 * that path with the entry's PATH. The layouts of Node's installer, nvm-windows, fnm and Volta are laid out as real
 * folders (docs/mcp-gui.md names their sources). The installs run where Windows paths are real: Node for Windows
 * (scripts/test-win32.sh, Wine) and the Windows CI runner. Wine makes no links (symlink and junction fail), so the
 * rule of which folder is resolved is also run here with links of the host and Windows injected.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { renderEntry } from '../src/mcp/clients/render-entry.js';
import { claudeDesktop } from '../src/mcp/clients/claude-desktop.js';
import { guiRunnerCheck } from '../src/mcp/doctor/start-environment.js';
import {
  cmdUnsafePath,
  isFnmShellFolder,
  stableFolder,
  windowsSystemFolders,
} from '../src/mcp/install/windows-runner.js';
import { runCli, type RunResult } from './helpers/cli.js';
import { entryRequest } from './helpers/mcp-request.js';
import { tempDir } from './helpers/temp-dirs.js';

const onWindows = process.platform === 'win32';
// Windows' default PATH starts with these (System32, the root, Wbem, PowerShell 5.1), from SystemRoot.
const SYSTEM_PATH =
  'C:\\Windows\\System32;C:\\Windows;C:\\Windows\\System32\\Wbem;C:\\Windows\\System32\\WindowsPowerShell\\v1.0';
const PATHEXT = '.COM;.EXE;.BAT;.CMD;.VBS;.VBE;.JS;.JSE;.WSF;.WSH;.MSC';
const CREDS = {
  SERVICE_EMAIL: 'gui@example.com',
  SERVICE_PASSWORD: 'gui-Secret-1',
  SERVICE_BASE_URL: 'https://x.example/api',
};

describe('the pieces of a Windows runner', () => {
  it("the system folders come from SystemRoot, whatever its key's case; C:\\Windows when it is unset or unusable", () => {
    assert.deepEqual(windowsSystemFolders({ SystemRoot: 'D:\\WINNT' }), [
      'D:\\WINNT\\System32',
      'D:\\WINNT',
      'D:\\WINNT\\System32\\Wbem',
      'D:\\WINNT\\System32\\WindowsPowerShell\\v1.0',
    ]);
    assert.equal(windowsSystemFolders({ SYSTEMROOT: 'E:\\Win\\' })[1], 'E:\\Win');
    for (const env of [{}, { SystemRoot: 'Windows' }, { SystemRoot: 'C:\\Win;C:\\evil' }])
      assert.equal(windowsSystemFolders(env).join(';'), SYSTEM_PATH, JSON.stringify(env));
  });

  it("fnm's per-shell folder is recognised by its parent's name or FNM_MULTISHELL_PATH; nvm-windows' and Volta's are not", () => {
    const local = 'C:\\Users\\ann\\AppData\\Local';
    assert.equal(isFnmShellFolder(`${local}\\fnm_multishells\\4242_1732700000000_0000000001`, {}), true);
    assert.equal(isFnmShellFolder(`${local}\\FNM_MULTISHELLS\\4242_1`, {}), true);
    assert.equal(isFnmShellFolder('D:\\shells\\4242_1', { FNM_MULTISHELL_PATH: 'd:\\Shells\\4242_1\\' }), true);
    assert.equal(isFnmShellFolder('D:\\shells\\4242_10', { FNM_MULTISHELL_PATH: 'D:\\shells\\4242_1' }), false);
    assert.equal(isFnmShellFolder('C:\\nvm4w\\nodejs', { NVM_SYMLINK: 'C:\\nvm4w\\nodejs' }), false);
    assert.equal(isFnmShellFolder('C:\\Program Files\\Volta', {}), false);
    assert.equal(isFnmShellFolder('C:\\Program Files\\nodejs', {}), false);
  });

  it('a path with a character cmd.exe reads as its own cannot follow `cmd /c`; spaces and other letters can', () => {
    for (const c of ['&', '<', '>', '(', ')', '@', '^', '|', '%', '!', ';'])
      assert.equal(
        cmdUnsafePath(`C:\\Tools${c}x\\nodejs\\npx.cmd`),
        `cmd.exe reads \`${c}\` in that path as its own`,
        c,
      );
    for (const ok of [
      'C:\\Program Files\\nodejs\\npx.cmd',
      'C:\\Users\\José Ñ\\AppData\\Roaming\\fnm\\node-versions\\v22.11.0\\installation\\npx.cmd',
      "C:\\Users\\o'brien\\AppData\\Local\\Volta\\bin\\npx.exe",
    ])
      assert.equal(cmdUnsafePath(ok, ['service-mcp-server', 'https://x.example/api']), undefined, ok);
    // Node quotes the path with a space and the argument with one: four quotes, and cmd.exe drops the outer two.
    const spaced = ['C:\\my pkgs\\server.tgz', 'https://x.example/api'];
    assert.match(cmdUnsafePath('C:\\Program Files\\nodejs\\npx.cmd', spaced) ?? '', /no other argument is quoted/);
    assert.equal(cmdUnsafePath('C:\\nvm4w\\nodejs\\npx.cmd', spaced), undefined);
  });

  it("links (the host's, Windows injected): fnm's shell folder is resolved to the installation, nvm-windows' link kept", async (t) => {
    const root = await tempDir('svcctl-gui-win-links-');
    const installation = join(root, 'AppData', 'Roaming', 'fnm', 'node-versions', 'v22.11.0', 'installation');
    const nvmVersion = join(root, 'AppData', 'Local', 'nvm', 'v22.11.0');
    const shells = join(root, 'AppData', 'Local', 'fnm_multishells');
    for (const dir of [installation, nvmVersion, shells, join(root, 'nvm4w')]) await mkdir(dir, { recursive: true });
    const shell = join(shells, '4242_1732700000000_0000000001');
    const nvmLink = join(root, 'nvm4w', 'nodejs');
    if (!(await linked(t, installation, shell)) || !(await linked(t, nvmVersion, nvmLink))) return;
    assert.equal(await stableFolder(shell, {}), await realpath(installation));
    assert.equal(await stableFolder(nvmLink, { NVM_SYMLINK: nvmLink }), nvmLink);
  });
});

describe('the rendered entry and its note, Windows injected', () => {
  const runner = { command: 'C:\\Program Files\\nodejs\\npx.cmd', path: `C:\\Program Files\\nodejs;${SYSTEM_PATH}` };

  it("Claude Desktop local: cmd /c, the absolute npx.cmd, then npx's arguments; PATH in env; a note says why", () => {
    const rendered = renderEntry(entryRequest('claude-desktop', 'local', 'password', { platform: 'win32', runner }));
    const entry = rendered.value as { command: string; args: string[]; env: Record<string, string> };
    assert.equal(entry.command, 'cmd');
    assert.deepEqual(entry.args, ['/c', 'C:\\Program Files\\nodejs\\npx.cmd', '-y', 'service-mcp-server@latest']);
    assert.equal(entry.env.PATH, runner.path);
    const note = rendered.notes.find((line) => line.startsWith('npx is at'));
    assert.match(
      note ?? '',
      /^npx is at C:\\Program Files\\nodejs\\npx\.cmd: Claude Desktop started from the Start menu/,
    );
    assert.match(note ?? '', /svcctl mcp install --client claude-desktop --force/);
  });

  it('a path install could not write: plain npx, no PATH, and the reason as the note', () => {
    const runnerUnwritten = 'npx is at C:\\Tools (x86)\\npx.cmd, but the entry runs plain npx: …';
    const rendered = renderEntry(
      entryRequest('lm-studio', 'local', 'password', { platform: 'win32', runnerUnwritten }),
    );
    const entry = rendered.value as { command: string; args: string[]; env: Record<string, string> };
    assert.deepEqual([entry.command, ...entry.args.slice(0, 2)], ['cmd', '/c', 'npx']);
    assert.equal(entry.env.PATH, undefined);
    assert.ok(rendered.notes.includes(runnerUnwritten), rendered.notes.join('\n'));
  });
});

describe("doctor: the npx.cmd the entry names, with the entry's PATH", () => {
  it('gone (Windows injected): runner fails and names the reinstall', async () => {
    const command = {
      command: 'cmd',
      args: ['/c', 'C:\\nonexistent-svcctl\\nodejs\\npx.cmd', '-y', 'service-mcp-server'],
      env: { PATH: `C:\\nonexistent-svcctl\\nodejs;${SYSTEM_PATH}` },
      forwarded: [],
    };
    const start = { env: { ...command.env, PATHEXT }, platform: 'win32' as const, cwd: 'C:\\' };
    const result = await guiRunnerCheck(command, start, start, claudeDesktop);
    assert.equal(result?.ok, false, JSON.stringify(result));
    assert.match(result.detail, /^C:\\nonexistent-svcctl\\nodejs\\npx\.cmd, the npx the entry runs, is gone/);
    assert.match(result.fix ?? '', /^svcctl mcp install --client claude-desktop --force/);
  });

  it("present, node beside it: passes; without node on the entry's PATH: fails", {
    skip: !onWindows && 'needs Windows paths',
  }, async () => {
    const folder = await layout('doctor', 'Program Files\\nodejs', ['node.exe', 'npx', 'npx.cmd']);
    const npx = join(folder, 'npx.cmd');
    const command = { command: 'cmd', args: ['/c', npx, '-y', 'x'], env: { PATH: folder }, forwarded: [] };
    const start = { env: { PATH: folder, PATHEXT }, platform: 'win32' as const, cwd: folder };
    const found = await guiRunnerCheck(command, start, start, claudeDesktop);
    assert.equal(found?.ok, true, JSON.stringify(found));
    const bare = { ...start, env: { PATH: SYSTEM_PATH, PATHEXT } };
    const noNode = await guiRunnerCheck({ ...command, env: { PATH: SYSTEM_PATH } }, bare, bare, claudeDesktop);
    assert.equal(noNode?.ok, false, JSON.stringify(noNode));
    assert.match(noNode.detail, /needs node, but the entry gives it PATH=C:\\Windows\\System32;/);
  });
});

describe('mcp install and print on Windows, per layout', {
  skip: !onWindows && 'needs Windows paths: run under Node for Windows',
}, () => {
  it("Node's installer (a folder with a space): the absolute npx.cmd, its folder and the system folders on PATH; print shows it", async () => {
    const folder = await layout('installer', 'Program Files\\nodejs', ['node.exe', 'npx', 'npx.cmd']);
    const { entry, result, home } = await install(folder);
    assert.deepEqual(entry.args.slice(0, 3), ['/c', join(folder, 'npx.cmd'), '-y']);
    assert.equal(entry.env.PATH, `${folder};${SYSTEM_PATH}`);
    assert.ok(
      result.stderr.includes(`npx is at ${join(folder, 'npx.cmd')}: Claude Desktop started from the Start menu`),
      result.stderr,
    );
    const printed = await runCli(['mcp', 'print', '--client', 'claude-desktop'], { home, env: envFor(folder) });
    assert.equal(printed.code, 0, printed.stderr);
    assert.ok(printed.stdout.includes(JSON.stringify(join(folder, 'npx.cmd'))), printed.stdout);
    assert.ok(printed.stdout.includes(JSON.stringify(`${folder};${SYSTEM_PATH}`)), printed.stdout);
  });

  it('Volta: its npx.exe (PATHEXT puts .EXE before .CMD), the folder as it is', async () => {
    const folder = await layout('volta', 'Program Files\\Volta', ['node.exe', 'npx.exe', 'npx.cmd', 'volta.exe']);
    const { entry } = await install(folder);
    assert.deepEqual(entry.args.slice(0, 2), ['/c', join(folder, 'npx.exe')]);
    assert.equal(entry.env.PATH, `${folder};${SYSTEM_PATH}`);
  });

  it('nvm-windows: the NVM_SYMLINK folder is written, not the version it points to', async (t) => {
    const version = await layout('nvm', 'AppData\\Local\\nvm\\v22.11.0', ['node.exe', 'npx', 'npx.cmd']);
    const link = join(version, '..', '..', '..', '..', 'nvm4w-nodejs');
    if (!(await linked(t, version, link))) return;
    const { entry } = await install(link, { NVM_SYMLINK: link });
    assert.equal(entry.args[1], join(link, 'npx.cmd'));
    assert.equal(entry.env.PATH, `${link};${SYSTEM_PATH}`);
  });

  it('fnm: the per-shell folder is resolved to the installation', async (t) => {
    const installation = await layout('fnm', 'AppData\\Roaming\\fnm\\node-versions\\v22.11.0\\installation', [
      'node.exe',
      'npx',
      'npx.cmd',
    ]);
    const shells = join(installation, '..', '..', '..', '..', '..', 'Local', 'fnm_multishells');
    await mkdir(shells, { recursive: true });
    const shell = join(shells, '4242_1732700000000_0000000001');
    if (!(await linked(t, installation, shell))) return;
    const { entry } = await install(shell, { FNM_MULTISHELL_PATH: shell });
    const real = await realpath(installation);
    assert.equal(entry.args[1], join(real, 'npx.cmd'));
    assert.equal(entry.env.PATH, `${real};${SYSTEM_PATH}`);
  });

  it('a folder with ( ): plain npx as before, no PATH, and a note that says why', async () => {
    const folder = await layout('x86', 'Program Files (x86)\\nodejs', ['node.exe', 'npx', 'npx.cmd']);
    const { entry, result } = await install(folder);
    assert.deepEqual(entry.args.slice(0, 2), ['/c', 'npx']);
    assert.equal(entry.env.PATH, undefined);
    assert.match(
      result.stderr,
      /npx is at .*\\Program Files \(x86\)\\nodejs\\npx\.cmd, but the entry runs plain npx: .*cmd\.exe reads `\(` in that path/,
    );
  });

  it('doctor: the entry install wrote, its npx.cmd then removed: runner fails and names the reinstall', async () => {
    const folder = await layout('removed', 'nvm4w\\nodejs', ['node.exe', 'npx', 'npx.cmd']);
    const { home } = await install(folder);
    const gone = join(folder, '..', 'nodejs-gone');
    await import('node:fs/promises').then(({ rename }) => rename(folder, gone));
    const doctor = await runCli(['mcp', 'doctor', '--client', 'claude-desktop'], { home, env: envFor(gone) });
    const runnerLine = doctor.stdout.split('\n').find((line) => line.slice(2).startsWith('runner:')) ?? '';
    assert.match(runnerLine, /^✗ runner: .*\\nodejs\\npx\.cmd, the npx the entry runs, is gone/, doctor.stdout);
    assert.match(doctor.stdout, /fix: svcctl mcp install --client claude-desktop --force/);
  });
});

/** A folder under a temp root with these files (npm's .cmd starts as its shims do; nothing here runs them). */
async function layout(name: string, relative: string, files: string[]): Promise<string> {
  const folder = join(await tempDir(`svcctl-gui-win-${name}-`), ...relative.split('\\'));
  await mkdir(folder, { recursive: true });
  for (const file of files) await writeFile(join(folder, file), file.endsWith('.cmd') ? '@ECHO off\r\n' : 'MZ');
  return folder;
}

/** A junction on Windows, a directory link elsewhere; false (the test skipped) where the system makes none (Wine). */
async function linked(t: TestContext, target: string, link: string): Promise<boolean> {
  try {
    await symlink(target, link, 'junction');
    return true;
  } catch (error) {
    t.skip(
      `this system makes no links (${(error as NodeJS.ErrnoException).code}): the rule is run above with the host's`,
    );
    return false;
  }
}

function envFor(folder: string, extra: Record<string, string> = {}): Record<string, string> {
  return { ...CREDS, PATH: folder, PATHEXT, SystemRoot: 'C:\\Windows', ...extra };
}

async function install(
  folder: string,
  extra: Record<string, string> = {},
): Promise<{ entry: { args: string[]; env: Record<string, string> }; result: RunResult; home: string }> {
  const home = await tempDir('svcctl-gui-win-home-');
  const result = await runCli(['mcp', 'install', '--client', 'claude-desktop'], { home, env: envFor(folder, extra) });
  assert.equal(result.code, 0, result.stderr);
  const file = /(?:created|updated) (.+claude_desktop_config\.json)/.exec(result.stderr)?.[1];
  assert.ok(file, result.stderr);
  const entry = JSON.parse(await readFile(file, 'utf8')).mcpServers.service;
  assert.equal(entry.command, 'cmd');
  return { entry, result, home };
}
