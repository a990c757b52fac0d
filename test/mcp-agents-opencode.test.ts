/**
 * Golden entries and paths of opencode and Kilo Code's CLI (issue 9), written
 * by hand from their sources (docs/clients-agents.md): entries under `mcp`,
 * `type: "local"` with the whole command line in one `command` array and the
 * variables under `environment`, `type: "remote"` with `url` and `headers`,
 * references written {env:VAR}. Then the built CLI installs, lists, prints
 * and uninstalls an entry in a temp HOME, keeping a user's comments.
 */
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it, test } from 'node:test';
import { CLIENTS } from '../src/mcp/clients/table.js';
import { entryRuleFailure, unexpandedCheck, unexpandedReferences } from '../src/mcp/doctor/client-rules.js';
import { planEntry } from '../src/mcp/doctor/entry-plan.js';
import { referenceSyntaxOf, Resolver } from '../src/mcp/doctor/references.js';
import { defaultSecrets } from '../src/mcp/clients/render-entry.js';
import { placeFile, runCli } from './helpers/cli.js';
import { BASE, LINUX as linux, MAC as mac, MCP, onlyFiles, renderValue, WIN as win } from './helpers/mcp-request.js';
import { tempDir } from './helpers/temp-dirs.js';

const render = renderValue;

for (const id of ['opencode', 'kilo'] as const) {
  describe(`${id}: entries per mode × auth`, () => {
    it('references by default, written {env:VAR}', () => {
      assert.equal(defaultSecrets({ client: id }), 'ref');
    });
    it('local: type local, one command array, environment', () => {
      const environment = {
        SERVICE_EMAIL: '{env:SERVICE_EMAIL}',
        SERVICE_PASSWORD: '{env:SERVICE_PASSWORD}',
        SERVICE_BASE_URL: BASE,
      };
      assert.deepEqual(render(id, 'local'), {
        type: 'local',
        command: ['npx', '-y', 'service-mcp-server@latest'],
        environment,
      });
      // Local mode logs in with email and password whatever --auth says.
      assert.deepEqual(render(id, 'local', 'bearer'), render(id, 'local'));
      assert.deepEqual(render(id, 'local', 'password', { platform: 'win32' }), {
        type: 'local',
        command: ['cmd', '/c', 'npx', '-y', 'service-mcp-server@latest'],
        environment,
      });
      assert.deepEqual(render(id, 'local', 'password', { secrets: 'literal' }), {
        type: 'local',
        command: ['npx', '-y', 'service-mcp-server@latest'],
        environment: { SERVICE_EMAIL: 'ann@acme.example', SERVICE_PASSWORD: 'p4ss word', SERVICE_BASE_URL: BASE },
      });
    });
    it('remote: type remote, url, headers', () => {
      assert.deepEqual(render(id, 'remote'), {
        type: 'remote',
        url: MCP,
        headers: { 'X-Service-Email': '{env:SERVICE_EMAIL}', 'X-Service-Password': '{env:SERVICE_PASSWORD}' },
      });
      assert.deepEqual(render(id, 'remote', 'bearer'), {
        type: 'remote',
        url: MCP,
        headers: { Authorization: 'Bearer {env:SERVICE_ACCESS_TOKEN}' },
      });
      assert.deepEqual(render(id, 'remote', 'bearer', { secrets: 'literal' }), {
        type: 'remote',
        url: MCP,
        headers: { Authorization: 'Bearer tok.en' },
      });
    });
    it('proxy: mcp-remote in the command array, header values from environment (mcp-remote expands ${NAME})', () => {
      assert.deepEqual(render(id, 'proxy'), {
        type: 'local',
        command: [
          'npx',
          'mcp-remote',
          MCP,
          '--header',
          'X-Service-Email:${SERVICE_EMAIL}',
          '--header',
          'X-Service-Password:${SERVICE_PASSWORD}',
        ],
        environment: { SERVICE_EMAIL: '{env:SERVICE_EMAIL}', SERVICE_PASSWORD: '{env:SERVICE_PASSWORD}' },
      });
      assert.deepEqual(render(id, 'proxy', 'bearer'), {
        type: 'local',
        command: ['npx', 'mcp-remote', MCP, '--header', 'Authorization:${SERVICE_AUTH_HEADER}'],
        environment: { SERVICE_AUTH_HEADER: 'Bearer {env:SERVICE_ACCESS_TOKEN}' },
      });
      assert.deepEqual(render(id, 'proxy', 'bearer', { secrets: 'literal' }), {
        type: 'local',
        command: ['npx', 'mcp-remote', MCP, '--header', 'Authorization:${SERVICE_AUTH_HEADER}'],
        environment: { SERVICE_AUTH_HEADER: 'Bearer tok.en' },
      });
    });
  });
}

test('opencode and Kilo files: ~/.config on every OS (xdg-basedir), .jsonc by default, an existing file kept', () => {
  assert.equal(CLIENTS.opencode.configPath(mac, 'user'), '/Users/ann/.config/opencode/opencode.jsonc');
  assert.equal(CLIENTS.opencode.configPath(linux, 'user'), '/home/ann/.config/opencode/opencode.jsonc');
  assert.equal(CLIENTS.opencode.configPath(win, 'user'), 'C:\\Users\\ann\\.config\\opencode\\opencode.jsonc');
  assert.equal(
    CLIENTS.opencode.configPath({ ...linux, env: { XDG_CONFIG_HOME: '/xdg' } }, 'user'),
    '/xdg/opencode/opencode.jsonc',
  );
  assert.equal(CLIENTS.opencode.configPath(linux, 'project'), '/home/ann/proj/opencode.json');
  assert.equal(CLIENTS.opencode.configPath(win, 'project'), 'C:\\work\\proj\\opencode.json');
  assert.equal(
    CLIENTS.opencode.configPath({ ...linux, fs: onlyFiles('/home/ann/.config/opencode/opencode.json') }, 'user'),
    '/home/ann/.config/opencode/opencode.json',
  );
  assert.equal(
    CLIENTS.opencode.configPath({ ...linux, fs: onlyFiles('/home/ann/proj/opencode.jsonc') }, 'project'),
    '/home/ann/proj/opencode.jsonc',
  );

  assert.equal(CLIENTS.kilo.configPath(mac, 'user'), '/Users/ann/.config/kilo/kilo.jsonc');
  assert.equal(CLIENTS.kilo.configPath(linux, 'user'), '/home/ann/.config/kilo/kilo.jsonc');
  assert.equal(CLIENTS.kilo.configPath(win, 'user'), 'C:\\Users\\ann\\.config\\kilo\\kilo.jsonc');
  assert.equal(CLIENTS.kilo.configPath(linux, 'project'), '/home/ann/proj/kilo.json');
  assert.equal(
    CLIENTS.kilo.configPath({ ...linux, fs: onlyFiles('/home/ann/proj/opencode.json') }, 'project'),
    '/home/ann/proj/opencode.json',
  );
  for (const id of ['opencode', 'kilo'] as const) {
    assert.deepEqual([...CLIENTS[id].scopes], ['user', 'project']);
    assert.deepEqual(CLIENTS[id].entryPath('svc', 'user', linux), ['mcp', 'svc']);
  }
});

describe('opencode through the CLI: install, list, print, command, uninstall', () => {
  let home: string;
  before(async () => {
    home = await tempDir('svcctl-opencode-');
  });
  after(async () => {
    await rm(home, { recursive: true, force: true });
  });
  const env = { SERVICE_BASE_URL: BASE, SERVICE_MCP_URL: MCP };
  const run = (args: string[]) => runCli(['mcp', ...args], { home, env });

  it('keeps comments and other servers, lists it, removes only it', async () => {
    const original =
      '{\n  // my servers\n  "$schema": "https://opencode.ai/config.json",\n  "mcp": {\n    "other": { "type": "remote", "url": "https://x.example/mcp" }\n  }\n}\n';
    const file = await placeFile(home, '.config/opencode/opencode.jsonc', original);
    const installed = await run(['install', '--client', 'opencode', '--mode', 'remote', '--auth', 'bearer']);
    assert.equal(installed.code, 0, installed.stderr);
    const text = await readFile(file, 'utf8');
    assert.ok(text.startsWith('{\n  // my servers\n'), text);
    assert.match(text, /"Authorization": "Bearer \{env:SERVICE_ACCESS_TOKEN\}"/);
    const again = await run(['install', '--client', 'opencode', '--mode', 'remote', '--auth', 'bearer']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(await readFile(file, 'utf8'), text, 'a second install changes nothing');
    const listed = await runCli(['mcp', 'list', '--json'], { home, env });
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(
      JSON.parse(listed.stdout).map((row: { client: string; name: string; mode: string }) => [
        row.client,
        row.name,
        row.mode,
      ]),
      [['opencode', 'service', 'remote']],
    );
    const command = await run(['command', '--client', 'opencode', '--mode', 'remote', '--auth', 'bearer']);
    assert.equal(command.code, 0, command.stderr);
    assert.equal(
      command.stdout.trim(),
      `opencode mcp add service --url ${MCP} --header 'Authorization=Bearer {env:SERVICE_ACCESS_TOKEN}'`,
    );
    const removed = await run(['uninstall', '--client', 'opencode']);
    assert.equal(removed.code, 0, removed.stderr);
    const after = await readFile(file, 'utf8');
    assert.ok(after.includes('// my servers') && after.includes('"other"') && !after.includes('"service"'), after);
  });

  it('a file that does not parse is refused and left as it was', async () => {
    const file = await placeFile(home, 'proj/opencode.json', '{ "mcp": { ');
    const result = await runCli(
      ['mcp', 'install', '--client', 'opencode', '--scope', 'project', '--project-dir', join(home, 'proj')],
      { home, env },
    );
    assert.equal(result.code, 7, result.stderr);
    assert.equal(await readFile(file, 'utf8'), '{ "mcp": { ');
  });
});

/** What opencode 1.18.33 did at its first start to a user config without `$schema` (seen 2026-11-27, docs/real-clients.md). */
const opencodeFirstStart = (text: string): string =>
  text.includes('"$schema"') ? text : text.replace(/^\{\n/, '{\n  "$schema": "https://opencode.ai/config.json",\n');

test("a new opencode config starts with opencode's $schema, so opencode's first start leaves svcctl's entries svcctl's", async () => {
  const home = await tempDir('svcctl-opencode-schema-');
  const env = { SERVICE_BASE_URL: BASE, SERVICE_MCP_URL: MCP };
  const installed = await runCli(['mcp', 'install', '--client', 'opencode', '--mode', 'remote'], { home, env });
  assert.equal(installed.code, 0, installed.stderr);
  const file = join(home, '.config', 'opencode', 'opencode.jsonc');
  const written = await readFile(file, 'utf8');
  assert.equal(opencodeFirstStart(written), written, 'opencode finds nothing to add');
  await writeFile(file, opencodeFirstStart(written));
  const declaration = await placeFile(
    home,
    'team/svcctl-mcp.toml',
    `clients = ["opencode"]\n\n[[server]]\nname = "ops"\nbase_url = "${BASE}"\nmode = "remote"\n`,
  );
  const synced = await runCli(['mcp', 'sync', '--file', declaration, '--yes'], { home, env, cwd: home });
  assert.equal(synced.code, 0, synced.stderr);
  const servers = Object.keys((JSON.parse(await readFile(file, 'utf8')) as { mcp: object }).mcp);
  assert.deepEqual(servers, ['ops'], "the sync removed install's entry: it was still svcctl's");
});

test('doctor reads {env:VAR} as opencode does, and flags ${VAR} and ${env:VAR}, which opencode leaves (or half-replaces)', () => {
  const client = CLIENTS.opencode;
  const resolver = new Resolver({ SERVICE_ACCESS_TOKEN: 'tok' });
  const entry = { type: 'remote', url: MCP, headers: { Authorization: 'Bearer {env:SERVICE_ACCESS_TOKEN}' } };
  const plan = planEntry(entry, referenceSyntaxOf(client), resolver, {}, client);
  assert.ok(typeof plan !== 'string' && plan.mode === 'remote');
  assert.deepEqual(plan.http.headers, { Authorization: 'Bearer tok' });
  assert.deepEqual(unexpandedReferences(client, entry, plan), []);
  const wrong = {
    type: 'local',
    command: ['npx', '-y', 'service-mcp-server'],
    environment: { SERVICE_EMAIL: '${SERVICE_EMAIL}', SERVICE_PASSWORD: '${env:SERVICE_PASSWORD}' },
  };
  const wrongPlan = planEntry(wrong, referenceSyntaxOf(client), new Resolver({}), {}, client);
  assert.ok(typeof wrongPlan !== 'string');
  const found = unexpandedReferences(client, wrong, wrongPlan);
  assert.deepEqual(found, ['${SERVICE_EMAIL}', '${env:SERVICE_PASSWORD}']);
  const check = unexpandedCheck(client, found);
  assert.equal(check.ok, false);
  assert.match(check.detail, /opencode expands only \{env:VAR\}/);
  assert.match(check.fix ?? '', /write \{env:SERVICE_EMAIL\}, \{env:SERVICE_PASSWORD\} instead/);
  // Cursor (${env:VAR}) does not expand opencode's form.
  const cursorEntry = { command: 'npx', args: [], env: { SERVICE_EMAIL: '{env:SERVICE_EMAIL}' } };
  const cursorPlan = planEntry(cursorEntry, referenceSyntaxOf(CLIENTS.cursor), new Resolver({}), {}, CLIENTS.cursor);
  assert.ok(typeof cursorPlan !== 'string');
  assert.deepEqual(unexpandedReferences(CLIENTS.cursor, cursorEntry, cursorPlan), ['{env:SERVICE_EMAIL}']);
});

test('doctor fails an entry opencode refuses (a string command, args, env, a wrong type) and passes its own shape', () => {
  const check = (entry: Record<string, unknown>) => {
    const plan = planEntry(entry, referenceSyntaxOf(CLIENTS.opencode), new Resolver({}), {}, CLIENTS.opencode);
    assert.ok(typeof plan !== 'string');
    return entryRuleFailure(CLIENTS.opencode, 'service', entry, plan);
  };
  const claudeShaped = check({ command: 'npx', args: ['-y', 'service-mcp-server'], env: { SERVICE_EMAIL: 'a' } });
  assert.equal(claudeShaped?.ok, false);
  assert.match(claudeShaped?.detail ?? '', /opencode refuses type null, a string command, args, env/);
  assert.match(claudeShaped?.fix ?? '', /svcctl mcp install --client opencode --force/);
  assert.match(check({ type: 'http', url: MCP })?.detail ?? '', /refuses type "http" \(it needs type "remote"\)/);
  assert.equal(check(renderValue('opencode', 'local')), undefined);
  assert.equal(check(renderValue('opencode', 'remote')), undefined);
  assert.equal(check(renderValue('opencode', 'proxy')), undefined);
});
