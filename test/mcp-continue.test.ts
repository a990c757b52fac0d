/**
 * Continue (docs/clients-editors.md): config.yaml in $CONTINUE_GLOBAL_DIR or ~/.continue, `name` and
 * `version` at its top, `mcpServers` a YAML list of items found by `name`, remote headers under
 * `requestOptions.headers`, no variable expansion (literal values). Goldens written from those facts;
 * the CLI runs against `svcctl dev` with a temp HOME.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, stat, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it, test } from 'node:test';
import { parse } from 'yaml';
import { CLIENTS } from '../src/mcp/clients/table.js';
import { checkSecrets, defaultSecrets } from '../src/mcp/clients/render-entry.js';
import { runCli, secretsIn } from './helpers/cli.js';
import { sandboxWithUser } from './helpers/dev-sandbox.js';
import { BASE, LINUX as linux, MAC as mac, MCP, renderValue as render, WIN as win } from './helpers/mcp-request.js';
import { tempDir } from './helpers/temp-dirs.js';

const LOCAL = ['-y', 'service-mcp-server@latest'];
const LITERAL_ENV = { SERVICE_EMAIL: 'ann@acme.example', SERVICE_PASSWORD: 'p4ss word' };

describe('Continue entries (render), per mode × auth, Windows', () => {
  it('paths: ~/.continue/config.yaml on every OS, $CONTINUE_GLOBAL_DIR first; one user scope', () => {
    const client = CLIENTS.continue;
    assert.deepEqual(client.scopes, ['user']);
    assert.equal(client.configPath(linux, 'user'), '/home/ann/.continue/config.yaml');
    assert.equal(client.configPath(mac, 'user'), '/Users/ann/.continue/config.yaml');
    assert.equal(client.configPath(win, 'user'), 'C:\\Users\\ann\\.continue\\config.yaml');
    assert.equal(
      client.configPath({ ...linux, env: { CONTINUE_GLOBAL_DIR: '/srv/continue' } }, 'user'),
      '/srv/continue/config.yaml',
    );
    assert.deepEqual(client.entryPath('svc', 'user', linux), ['mcpServers', 'svc']);
  });
  it('expands no variables: literal by default, --secrets ref refused', () => {
    assert.equal(defaultSecrets({ client: 'continue' }), 'literal');
    assert.throws(() => checkSecrets({ client: 'continue' }, 'ref'), /does not expand variables in its config file/);
  });
  it('local: name first, type stdio, literal env; cmd /c npx on Windows', () => {
    assert.deepEqual(render('continue', 'local'), {
      name: 'service',
      type: 'stdio',
      command: 'npx',
      args: LOCAL,
      env: { ...LITERAL_ENV, SERVICE_BASE_URL: BASE },
    });
    assert.deepEqual(render('continue', 'local', 'password', { platform: 'win32' }).args, ['/c', 'npx', ...LOCAL]);
  });
  it('remote: type streamable-http, url, headers under requestOptions.headers (both auth methods)', () => {
    assert.deepEqual(render('continue', 'remote'), {
      name: 'service',
      type: 'streamable-http',
      url: MCP,
      requestOptions: {
        headers: { 'X-Service-Email': LITERAL_ENV.SERVICE_EMAIL, 'X-Service-Password': LITERAL_ENV.SERVICE_PASSWORD },
      },
    });
    assert.deepEqual(render('continue', 'remote', 'bearer'), {
      name: 'service',
      type: 'streamable-http',
      url: MCP,
      requestOptions: { headers: { Authorization: 'Bearer tok.en' } },
    });
  });
  it('proxy: mcp-remote with the header values in env', () => {
    assert.deepEqual(render('continue', 'proxy', 'bearer'), {
      name: 'service',
      type: 'stdio',
      command: 'npx',
      args: ['mcp-remote', MCP, '--header', 'Authorization:${SERVICE_AUTH_HEADER}'],
      env: { SERVICE_AUTH_HEADER: 'Bearer tok.en' },
    });
  });
});

const ALICE = { email: 'alice@example.com', password: 'alice-continue-pw' };
const { ready, credentials } = sandboxWithUser(ALICE);

test('a new config.yaml starts with name, version and schema, then the item; list, doctor (logs in), uninstall', async () => {
  const home = await tempDir('svcctl-continue-');
  const run = (args: string[]) => runCli(args, { home, env: credentials() });
  const installed = await run(['mcp', 'install', '--client', 'continue', '--mode', 'remote']);
  assert.equal(installed.code, 0, installed.stderr);
  const file = join(home, '.continue', 'config.yaml');
  const headers = { 'X-Service-Email': ALICE.email, 'X-Service-Password': ALICE.password };
  assert.deepEqual(parse(await readFile(file, 'utf8')), {
    name: 'Local Config',
    version: '1.0.0',
    schema: 'v1',
    mcpServers: [{ name: 'service', type: 'streamable-http', url: ready().mcp_url, requestOptions: { headers } }],
  });
  assert.equal((await stat(file)).mode & 0o777, 0o600);
  const listed = await run(['mcp', 'list', '--json']);
  assert.deepEqual(
    JSON.parse(listed.stdout).map((row: { client: string; mode: string; file: string }) => [
      row.client,
      row.mode,
      row.file,
    ]),
    [['continue', 'remote', file]],
  );
  const doctor = await run(['mcp', 'doctor', '--client', 'continue']);
  assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
  assert.match(doctor.stdout, /^✓ tools\/list: /m);
  assert.deepEqual(secretsIn(doctor, [ALICE.password]), []);
  const removed = await run(['mcp', 'uninstall', '--client', 'continue']);
  assert.equal(removed.code, 0, removed.stderr);
  assert.ok(!existsSync(file), 'svcctl created the file, so it goes with its only entry');
});

test('an existing config.yaml keeps its comments, models and other servers; a second install changes nothing; uninstall restores it byte for byte', async () => {
  const home = await tempDir('svcctl-continue-keep-');
  const dir = join(home, 'continue-home');
  await mkdir(dir, { recursive: true });
  const original = [
    'name: Mine # my assistant',
    'version: 0.0.1',
    'models:',
    '  - name: m',
    '    provider: openai',
    'mcpServers:',
    '  # a server of mine',
    '  - name: other',
    '    command: /bin/other',
    '',
  ].join('\n');
  const file = join(dir, 'config.yaml');
  await writeFile(file, original);
  const env = { ...credentials(), CONTINUE_GLOBAL_DIR: dir };
  const installed = await runCli(['mcp', 'install', '--client', 'continue', '--mode', 'local'], { home, env });
  assert.equal(installed.code, 0, installed.stderr);
  const text = await readFile(file, 'utf8');
  const expectedItem = [
    '  - name: service',
    '    type: stdio',
    '    command: npx',
    '    args:',
    '      - -y',
    '      - service-mcp-server@latest',
    '    env:',
    `      SERVICE_EMAIL: ${ALICE.email}`,
    `      SERVICE_PASSWORD: ${ALICE.password}`,
    `      SERVICE_BASE_URL: ${ready().base_url}`,
    '',
  ].join('\n');
  assert.equal(text, original + expectedItem, 'our item is appended; every other byte is kept');
  const again = await runCli(['mcp', 'install', '--client', 'continue', '--mode', 'local'], { home, env });
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /unchanged/);
  assert.equal(await readFile(file, 'utf8'), text);
  const removed = await runCli(['mcp', 'uninstall', '--client', 'continue'], { home, env });
  assert.equal(removed.code, 0, removed.stderr);
  assert.equal(await readFile(file, 'utf8'), original);
});

test('a config.yaml that does not parse is refused with exit 7 and left as it was', async () => {
  const home = await tempDir('svcctl-continue-bad-');
  const file = join(home, '.continue', 'config.yaml');
  await mkdir(join(home, '.continue'));
  const broken = 'name: x\nversion: 1\nmcpServers:\n  - name: a\n   command: b\n';
  await writeFile(file, broken);
  const result = await runCli(['mcp', 'install', '--client', 'continue', '--mode', 'local'], {
    home,
    env: credentials(),
  });
  assert.equal(result.code, 7, result.stderr);
  assert.match(result.stderr, /config\.yaml/);
  assert.equal(await readFile(file, 'utf8'), broken);
});
