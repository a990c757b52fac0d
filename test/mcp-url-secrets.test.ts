/**
 * Secrets in a URL and in install links. A user name or password in any URL svcctl takes (the MCP URL too) is
 * refused with exit 2 before anything is written; a secret query value (`?api_key=`) makes the URL a literal
 * secret: refused in a project file git would commit, hidden in what svcctl prints. A web install link
 * (cursor.com, insiders.vscode.dev, lmstudio.ai) never carries a literal secret.
 */
import assert from 'node:assert/strict';
import { access, readFile, stat, writeFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { urlSecrets } from '../src/config/url-secrets.js';
import { isSecretQueryKey } from '../src/redaction/mask-entry.js';
import { runCli } from './helpers/cli.js';
import { git } from './helpers/git.js';
import { projectFolder, projectInstall } from './helpers/project-fixtures.js';
import { tempDir } from './helpers/temp-dirs.js';

const HIDDEN = 'hunter2secret';
const ENV = { SERVICE_EMAIL: 'alice@example.com', SERVICE_PASSWORD: 'alice-url-pw-77' };
const TRACKED = '{\n  "mcpServers": {}\n}\n';

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

/** A project whose `.mcp.json` git tracks, as in the issue. */
async function trackedProject(): Promise<{ home: string; proj: string; file: string }> {
  const made = await projectFolder({ prefix: 'svcctl-url-secrets-', mcpJson: TRACKED });
  git(made.proj, made.home, 'init', '-q');
  git(made.proj, made.home, 'add', '.mcp.json');
  git(made.proj, made.home, 'commit', '-q', '-m', 'servers');
  return made;
}

describe('the secrets a URL carries', () => {
  it('its password and the values of secret query keys, decoded', () => {
    assert.deepEqual(urlSecrets('https://u:p%40ss@ex.invalid/mcp'), ['p@ss']);
    assert.deepEqual(urlSecrets('https://ex.invalid/mcp?api_key=a1&x-api-key=b2&access_token=c3&page=2&sig=d4'), [
      'a1',
      'b2',
      'c3',
      'd4',
    ]);
    assert.deepEqual(urlSecrets('https://ex.invalid/mcp?region=eu&keyboard=us'), []);
    assert.deepEqual(urlSecrets('not a url'), []);
  });
  for (const key of [
    'api_key',
    'apiKey',
    'key',
    'token',
    'access_token',
    'secret',
    'client_secret',
    'password',
    'auth',
  ])
    it(`${key} names a secret`, () => assert.equal(isSecretQueryKey(key), true));
  for (const key of ['page', 'region', 'keyboard', 'monkey', 'author', 'format'])
    it(`${key} does not`, () => assert.equal(isSecretQueryKey(key), false));
});

describe('a user name or password in the MCP URL is refused (exit 2)', () => {
  it('SERVICE_MCP_URL in mcp install, project scope, .mcp.json tracked by git: nothing written', async () => {
    const { home, proj, file } = await trackedProject();
    const result = await runCli(projectInstall('--mode', 'remote'), {
      home,
      cwd: proj,
      env: { ...ENV, SERVICE_MCP_URL: `https://u:${HIDDEN}@ex.invalid/mcp` },
    });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /SERVICE_MCP_URL must not contain a user name or password/);
    assert.match(result.stderr, /hint: remove the user:password@ part/);
    assert.ok(!(result.stdout + result.stderr).includes(HIDDEN));
    assert.equal(await readFile(file, 'utf8'), TRACKED);
    assert.equal(await exists(`${file}.bak`), false);
  });

  for (const args of [
    ['mcp', 'print', '--client', 'cursor', '--mode', 'remote'],
    ['mcp', 'command', '--client', 'cursor', '--mode', 'remote', '--show-secrets'],
    ['mcp', 'proxy', '--auth', 'password'],
  ]) {
    it(`--mcp-url with a user name alone, or with a password: ${args.slice(0, 2).join(' ')}`, async () => {
      const home = await tempDir('svcctl-url-secrets-');
      for (const url of [`https://u:${HIDDEN}@ex.invalid/mcp`, 'https://someone@ex.invalid/mcp']) {
        const result = await runCli([...args, '--mcp-url', url], { home, env: ENV });
        assert.equal(result.code, 2, result.stderr);
        assert.match(result.stderr, /--mcp-url must not contain a user name or password/);
        assert.ok(!(result.stdout + result.stderr).includes(HIDDEN));
      }
    });
  }
});

describe('a secret in the MCP URL query is a literal secret', () => {
  const url = `https://ex.invalid/mcp?api_key=${HIDDEN}`;

  it('a project file git tracks: refused (exit 7) whatever --secrets says, nothing written', async () => {
    const { home, proj, file } = await trackedProject();
    const result = await runCli(projectInstall('--mode', 'remote', '--secrets', 'ref'), {
      home,
      cwd: proj,
      env: { ...ENV, SERVICE_MCP_URL: url },
    });
    assert.equal(result.code, 7, result.stderr);
    assert.match(result.stderr, /will not write the MCP URL into it, since the URL holds a secret/);
    assert.ok(!(result.stdout + result.stderr).includes(HIDDEN));
    assert.equal(await readFile(file, 'utf8'), TRACKED);
  });

  it('a file git ignores: written, readable only by you, and the secret is hidden in what svcctl says', async () => {
    const { home, proj, file } = await projectFolder({ prefix: 'svcctl-url-secrets-' });
    git(proj, home, 'init', '-q');
    await writeFile(`${proj}/.gitignore`, '.mcp.json\n');
    const result = await runCli(projectInstall('--mode', 'remote', '--secrets', 'ref'), {
      home,
      cwd: proj,
      env: { ...ENV, SERVICE_MCP_URL: url },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.ok(!(result.stdout + result.stderr).includes(HIDDEN));
    assert.equal(JSON.parse(await readFile(file, 'utf8')).mcpServers.service.url, url);
    assert.equal((await stat(file)).mode & 0o777, 0o600);
  });

  it('mcp print hides it unless --show-secrets', async () => {
    const home = await tempDir('svcctl-url-secrets-');
    const args = ['mcp', 'print', '--client', 'cursor', '--mode', 'remote', '--mcp-url', url];
    const hidden = await runCli(args, { home, env: ENV });
    assert.equal(hidden.code, 0, hidden.stderr);
    assert.ok(hidden.stdout.includes('mcp?api_key=***'), hidden.stdout);
    assert.ok(!(hidden.stdout + hidden.stderr).includes(HIDDEN));
    const shown = await runCli([...args, '--show-secrets'], { home, env: ENV });
    assert.ok(shown.stdout.includes(url), shown.stdout);
  });
});

describe('web install links never carry a literal secret', () => {
  for (const [client, local, web] of [
    ['cursor', 'cursor://', 'cursor.com'],
    ['vscode', 'vscode:', 'insiders.vscode.dev'],
    ['lm-studio', 'lmstudio://', 'lmstudio.ai'],
  ] as const) {
    it(`${client} --secrets literal --show-secrets: the ${local} link only, and why there is no ${web} link`, async () => {
      const home = await tempDir('svcctl-url-secrets-');
      const result = await runCli(
        ['mcp', 'command', '--client', client, '--mode', 'remote', '--secrets', 'literal', '--show-secrets'],
        { home, env: { ...ENV, SERVICE_MCP_URL: 'https://ex.invalid/mcp' } },
      );
      assert.equal(result.code, 0, result.stderr);
      assert.ok(result.stdout.includes(local), result.stdout);
      assert.ok(!result.stdout.includes(web), result.stdout);
      assert.match(result.stderr, new RegExp(`no ${web.replace(/\./g, '\\.')} link: a link that leaves this machine`));
      const webLines = result.stdout.split('\n').filter((line) => line.startsWith('https://'));
      assert.deepEqual(webLines, []);
    });
  }

  it('cursor --secrets ref: the cursor.com link too (it holds references, no secret)', async () => {
    const home = await tempDir('svcctl-url-secrets-');
    const result = await runCli(['mcp', 'command', '--client', 'cursor', '--mode', 'remote', '--secrets', 'ref'], {
      home,
      env: { ...ENV, SERVICE_MCP_URL: 'https://ex.invalid/mcp' },
    });
    assert.equal(result.code, 0, result.stderr);
    const web = result.stdout.split('\n').find((line) => line.startsWith('https://cursor.com/'));
    assert.ok(web, result.stdout);
    const config = new URL(web).searchParams.get('config') ?? '';
    const entry = Buffer.from(config, 'base64').toString('utf8');
    assert.ok(entry.includes('${env:SERVICE_PASSWORD}'), entry);
    assert.ok(!entry.includes(ENV.SERVICE_PASSWORD));
  });
});
