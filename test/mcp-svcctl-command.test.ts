/**
 * How a `--token helper` entry starts svcctl again, decided from how the
 * running svcctl was started (src/mcp/install/svcctl-command.ts): its path
 * from a clone or a global install, `npx -y svcctl@<version>` from npx's
 * cache; on Windows `cmd /c` only where a shim is run (npx), never before
 * node.exe. And what `mcp doctor` reads back from such a line.
 */
import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cmdWords, commandLine, posixWords } from '../src/mcp/render/shell-quote.js';
import { goneSvcctlPaths, reinstallLine } from '../src/mcp/doctor/svcctl-paths.js';
import { inNpxCache, svcctlCommand } from '../src/mcp/install/svcctl-command.js';
import { SVCCTL_HELPER, isSvcctlProxy } from '../src/mcp/service-entries.js';
import { VERSION } from '../src/core/version.js';
import { BASE, renderValue } from './helpers/mcp-request.js';
import { tempDir } from './helpers/temp-dirs.js';

const ctx = (script: string | undefined, env: NodeJS.ProcessEnv = { PATH: '' }) => ({
  program: { execPath: '/opt/node/bin/node', script },
  env,
  platform: 'linux' as const,
  cwd: '/',
});

describe('svcctlCommand: from how svcctl was started', () => {
  it('a clone or a global install: node and the script, the script with its links resolved', async () => {
    const dir = await tempDir();
    const script = join(dir, 'clone', 'bin', 'svcctl.js');
    await mkdir(join(dir, 'clone', 'bin'), { recursive: true });
    await writeFile(script, '');
    await mkdir(join(dir, 'prefix', 'bin'), { recursive: true });
    await symlink(script, join(dir, 'prefix', 'bin', 'svcctl'));
    assert.deepEqual(await svcctlCommand(ctx(join(dir, 'prefix', 'bin', 'svcctl'))), {
      argv: ['/opt/node/bin/node', script],
      how: 'path',
    });
  });

  it("npx's cache: npx -y svcctl@<this version>", async () => {
    const dir = await tempDir();
    const script = join(dir, '.npm', '_npx', '9f8e7d6c5b4a3210', 'node_modules', 'svcctl', 'bin', 'svcctl.js');
    await mkdir(join(script, '..'), { recursive: true });
    await writeFile(script, '');
    assert.deepEqual(await svcctlCommand(ctx(script)), { argv: ['npx', '-y', `svcctl@${VERSION}`], how: 'npx' });
    assert.equal(
      inNpxCache('C:\\Users\\ann\\AppData\\Local\\npm-cache\\_npx\\1234\\node_modules\\svcctl\\bin\\svcctl.js'),
      true,
    );
    assert.equal(inNpxCache('/home/ann/src/my_npx_tools/svcctl/bin/svcctl.js'), false);
  });

  it('an unknown program: by name when svcctl is on PATH, else through npx with this version', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'svcctl'), '', { mode: 0o755 });
    const unknown = { env: { PATH: dir }, platform: 'linux' as const, cwd: '/' };
    assert.deepEqual(await svcctlCommand(unknown), { argv: ['svcctl'], how: 'name' });
    assert.deepEqual(await svcctlCommand({ ...unknown, env: { PATH: '' } }), {
      argv: ['npx', '-y', `svcctl@${VERSION}`],
      how: 'npx',
    });
  });
});

describe('the entries written for each case', () => {
  const byPath = {
    svcctl: {
      argv: ['C:\\Program Files\\nodejs\\node.exe', 'C:\\tools\\svcctl\\bin\\svcctl.js'],
      how: 'path' as const,
    },
    canRefresh: true,
  };
  const byNpx = { svcctl: { argv: ['npx', '-y', 'svcctl@1.2.3'], how: 'npx' as const }, canRefresh: true };

  it('Windows, a client that spawns without a shell: node.exe runs directly; npx (a .cmd shim) through cmd /c', () => {
    assert.deepEqual(renderValue('cursor', 'proxy', 'bearer', { platform: 'win32', tokenHelper: byPath }), {
      command: 'C:\\Program Files\\nodejs\\node.exe',
      args: ['C:\\tools\\svcctl\\bin\\svcctl.js', '--base-url', BASE, 'mcp', 'proxy'],
    });
    assert.deepEqual(renderValue('cursor', 'proxy', 'bearer', { platform: 'win32', tokenHelper: byNpx }), {
      command: 'cmd',
      args: ['/c', 'npx', '-y', 'svcctl@1.2.3', '--base-url', BASE, 'mcp', 'proxy'],
    });
  });

  it('a headers command: the words quoted for a shell, read back by doctor as written', () => {
    const value = renderValue('claude-code', 'remote', 'bearer', { tokenHelper: byPath }) as { headersHelper: string };
    assert.equal(
      value.headersHelper,
      `'C:\\Program Files\\nodejs\\node.exe' 'C:\\tools\\svcctl\\bin\\svcctl.js' --base-url ${BASE} token --refresh --json-headers`,
    );
    assert.match(value.headersHelper, SVCCTL_HELPER);
    assert.deepEqual(posixWords(value.headersHelper).slice(0, 3), [
      'C:\\Program Files\\nodejs\\node.exe',
      'C:\\tools\\svcctl\\bin\\svcctl.js',
      '--base-url',
    ]);
    const npx = renderValue('claude-code', 'remote', 'bearer', { tokenHelper: byNpx }) as { headersHelper: string };
    assert.equal(npx.headersHelper, `npx -y svcctl@1.2.3 --base-url ${BASE} token --refresh --json-headers`);
    assert.match(npx.headersHelper, SVCCTL_HELPER);
  });

  it('on Windows the headers command is quoted for cmd.exe, which runs it (no single quotes, backslashes kept)', () => {
    const value = renderValue('claude-code', 'remote', 'bearer', { platform: 'win32', tokenHelper: byPath }) as {
      headersHelper: string;
    };
    assert.equal(
      value.headersHelper,
      `"C:\\Program Files\\nodejs\\node.exe" C:\\tools\\svcctl\\bin\\svcctl.js --base-url ${BASE} token --refresh --json-headers`,
    );
    assert.match(value.headersHelper, SVCCTL_HELPER);
    assert.deepEqual(cmdWords(value.headersHelper).slice(0, 2), byPath.svcctl.argv);
    // Codex splits the line into words itself (no shell), so its line keeps POSIX quotes on Windows too.
    const codex = renderValue('codex', 'remote', 'bearer', { platform: 'win32', tokenHelper: byPath }) as {
      http_headers_helper: string;
    };
    assert.ok(
      codex.http_headers_helper.startsWith("'C:\\Program Files\\nodejs\\node.exe' "),
      codex.http_headers_helper,
    );
    const percent = { ...byPath, svcctl: { ...byPath.svcctl, argv: ['C:\\100%\\node.exe', 'C:\\s\\svcctl.js'] } };
    assert.throws(
      () => renderValue('claude-code', 'remote', 'bearer', { platform: 'win32', tokenHelper: percent }),
      /cannot be written into a command line that cmd\.exe runs/,
    );
  });

  it('mcp list and doctor recognise svcctl by path and by npx with a version', () => {
    assert.equal(
      isSvcctlProxy(['/usr/bin/node', '/opt/svcctl/bin/svcctl.js', '--base-url', BASE, 'mcp', 'proxy']),
      true,
    );
    assert.equal(isSvcctlProxy(['cmd', '/c', 'npx', '-y', 'svcctl@1.2.3', 'mcp', 'proxy']), true);
    assert.equal(isSvcctlProxy(['/usr/bin/node', '/opt/other/bin/tool.js', 'mcp', 'proxy']), false);
  });
});

describe('posixWords, cmdWords and goneSvcctlPaths', () => {
  it('cmdWords: double quotes group words, backslashes are path separators', () => {
    const words = ['C:\\Program Files\\node.exe', 'C:\\a\\b.js', 'a&b|c', '--x'];
    assert.equal(commandLine(words, 'cmd'), '"C:\\Program Files\\node.exe" C:\\a\\b.js "a&b|c" --x');
    assert.deepEqual(cmdWords(commandLine(words, 'cmd')), words);
  });

  it('reads quotes and backslashes as a shell does', () => {
    const words = ['plain', "it's", 'a b', '$HOME', 'back\\slash', ''];
    assert.deepEqual(posixWords(commandLine(words, 'posix')), words);
    assert.deepEqual(posixWords(`"a \\"b\\" \\$x" c\\ d`), ['a "b" $x', 'c d']);
  });

  it('the absolute paths of node and the svcctl script that no longer exist; nothing for a name or npx', async () => {
    const dir = await tempDir();
    const script = join(dir, 'bin', 'svcctl.js');
    await mkdir(join(dir, 'bin'));
    await writeFile(script, '');
    assert.deepEqual(await goneSvcctlPaths([process.execPath, script, 'mcp', 'proxy']), []);
    assert.deepEqual(await goneSvcctlPaths([process.execPath, join(dir, 'gone', 'svcctl.js')]), [
      join(dir, 'gone', 'svcctl.js'),
    ]);
    assert.deepEqual(await goneSvcctlPaths(['/no/such/node', script]), ['/no/such/node']);
    assert.deepEqual(await goneSvcctlPaths(['cmd', '/c', 'C:\\nodejs\\node.exe', 'C:\\svcctl\\bin\\svcctl.js']), [
      'C:\\nodejs\\node.exe',
      'C:\\svcctl\\bin\\svcctl.js',
    ]);
    assert.deepEqual(await goneSvcctlPaths(['svcctl', '--base-url', BASE]), []);
    assert.deepEqual(await goneSvcctlPaths(['npx', '-y', 'svcctl@1.2.3']), []);
    assert.deepEqual(await goneSvcctlPaths(['/no/such/node', '/srv/other-tool.js']), [], 'not an svcctl line');
  });

  it('the fix names the client, the mode, a scope and a name other than the defaults', () => {
    assert.equal(
      reinstallLine({ client: 'gemini', scope: 'user', mode: 'proxy', name: 'service' }),
      'svcctl mcp install --client gemini --mode proxy --auth bearer --token helper --force',
    );
    assert.equal(
      reinstallLine({ client: 'claude-code', scope: 'project', mode: 'remote', name: 'ops' }),
      'svcctl mcp install --client claude-code --mode remote --scope project --name ops --auth bearer --token helper --force',
    );
  });
});
