/**
 * What `mcp sync --file` accepts as a declaration (issue 46, items 4 and 6): a regular file under 1 MiB, a package
 * that is a registry name, a base_url that is an API base; every mistake one exit-2 error naming file:line:key, its
 * foreign text on one line. And `mcp install --package`, typed by the user, never a spec npx reads as an option.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { placeFile, runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const SERVER = 'clients = ["cursor"]\n[[server]]\nname = "ops"\n';
const AT = 'base_url = "https://acme.example.com/api"\n';

async function syncOf(text: string, args: string[] = []) {
  const home = await tempDir('svcctl-sync-bounds-');
  const file = await placeFile(home, 'team/svcctl-mcp.toml', text);
  const result = await runCli(['mcp', 'sync', '--file', file, '--yes', ...args], { home, cwd: home });
  const cursor = await readFile(join(home, '.cursor', 'mcp.json'), 'utf8').catch(() => '<absent>');
  return { ...result, home, file, cursor };
}

const errorLines = (stderr: string): string[] => stderr.split('\n').filter((line) => line.startsWith('error:'));

describe('mcp sync: the declaration itself', () => {
  it('a package that is not a registry name is refused at its line, nothing written', async () => {
    const refused = [
      'https://attacker.example/evil.tgz',
      './evil',
      '/tmp/evil',
      '../evil.tgz',
      'file:../evil.tgz',
      'git+https://github.com/a/b.git',
      'github:a/b',
      'a/b',
      '--call=touch /tmp/pwned',
      '-y',
      'Evil',
      '@scope/name@1.0.0 --call=x',
      // npm-package-arg reads a name or a tag ending in .tgz, .tar.gz or .tar as a tarball path beside the client's
      // folder (npa.js, isFileType): a project's own file, run by npx.
      'evil.tgz',
      'evil.tar',
      'evil.tar.gz',
      'ops@evil.tgz',
      'ops@EVIL.TGZ',
      '@scope/ops@evil.tar',
      // An alias, a spec after the name, a lookalike letter (Cyrillic s), whitespace.
      'npm:evil@1',
      'ops@npm:evil@1',
      '@scope/x@file:..',
      'ops@https://attacker.example/x',
      '\u0455ervice-mcp-server',
      ' ops',
      'ops\n',
    ];
    for (const spec of refused) {
      const result = await syncOf(`${SERVER}mode = "local"\npackage = ${JSON.stringify(spec)}\n`);
      assert.equal(result.code, 2, `${spec}: ${result.stderr}`);
      assert.match(result.stderr, /svcctl-mcp\.toml:5: 'package' /, spec);
      assert.equal(errorLines(result.stderr).length, 1, result.stderr);
      assert.equal(result.cursor, '<absent>', spec);
    }
  });

  it('a registry name with an optional version, range or tag is taken', async () => {
    for (const spec of ['service-mcp-server', 'service-mcp-server@1.2.3', '@acme/ops-mcp@latest', 'ops@^2.0.0']) {
      const result = await syncOf(`${SERVER}${AT}mode = "local"\npackage = "${spec}"\n`);
      assert.equal(result.code, 0, `${spec}: ${result.stderr}`);
      assert.ok(result.cursor.includes(`"${spec}`), result.cursor);
    }
  });

  it('a base_url without /api is exit 2 at its line, blaming no flag', async () => {
    const result = await syncOf(`${SERVER}base_url = "https://acme.example.com"\n`);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /svcctl-mcp\.toml:4: 'base_url' must end in \/api/);
    assert.doesNotMatch(result.stderr, /--base-url|is unchanged/);
    assert.equal(result.cursor, '<absent>');
  });

  it('foreign text in an error stays on one line', async () => {
    const result = await syncOf('clients = ["cursor", "x\\nerror: forged\\u001b[2J"]\n');
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /'clients' names an unknown client 'x\\nerror: forged\\u001b\[2J'/);
    assert.equal(errorLines(result.stderr).length, 1, result.stderr);
    const key = await syncOf('clients = ["cursor"]\n"a\\nerror: forged" = 1\n');
    assert.equal(key.code, 2, key.stderr);
    assert.match(key.stderr, /'a\\nerror: forged' is not a key of a sync file/);
    assert.equal(errorLines(key.stderr).length, 1, key.stderr);
  });

  it('a file over 1 MiB is refused without being read whole', async () => {
    const result = await syncOf(`${SERVER}${'# padding\n'.repeat(110_000)}`);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /--file .*svcctl-mcp\.toml: is \d+ bytes, over the limit of 1 MiB/);
  });

  it('a FIFO is refused at once, never opened', { skip: process.platform === 'win32', timeout: 20_000 }, async () => {
    const home = await tempDir('svcctl-sync-fifo-');
    const fifo = join(home, 'decl.toml');
    execFileSync('mkfifo', [fifo]);
    // Nobody ever writes to the FIFO: opened or read, the run would wait until the test's timeout.
    const result = await runCli(['mcp', 'sync', '--file', fifo, '--yes'], { home, cwd: home });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /is a named pipe \(FIFO\), not a regular file/);
  });
});

describe('mcp install --package, typed by the user', () => {
  it('takes other specs, never one npx would read as an option', async () => {
    const home = await tempDir('svcctl-install-pkg-');
    const env = { SERVICE_BASE_URL: 'https://acme.example.com/api' };
    const option = await runCli(['mcp', 'install', '--client', 'cursor', '--package=--call=touch x'], { home, env });
    assert.equal(option.code, 2, option.stderr);
    assert.match(option.stderr, /starts with "-"/);
    assert.equal(await readFile(join(home, '.cursor', 'mcp.json'), 'utf8').catch(() => '<absent>'), '<absent>');
    const tarball = await runCli(['mcp', 'install', '--client', 'cursor', '--package', './local.tgz'], { home, env });
    assert.equal(tarball.code, 0, tarball.stderr);
    assert.match(await readFile(join(home, '.cursor', 'mcp.json'), 'utf8'), /\.\/local\.tgz/);
  });
});
