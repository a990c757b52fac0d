/**
 * Cline, Roo Code and Zoo Code keep their MCP settings in the extension's global storage of whichever app of the VS
 * Code family runs them (`<app data>/<productName>/User/globalStorage/<extension id>`: docs/clients-editors.md,
 * "Extension clients in every VS Code host"). Paths written by hand for the three systems; install, list, doctor's
 * search and uninstall on real files in a temp HOME.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { CLIENTS } from '../src/mcp/clients/table.js';
import type { ClientEnv } from '../src/mcp/types.js';
import { placeFile, runCli } from './helpers/cli.js';
import { startForeignMcpServer } from './helpers/foreign-mcp-server.js';
import { runAtTerminal } from './helpers/fake-terminal.js';
import { tempDir } from './helpers/temp-dirs.js';

const only = (...dirs: string[]) => ({ exists: (p: string) => dirs.includes(p), list: () => [] });
const mac = (fs = only()): ClientEnv => ({ homeDir: '/Users/ann', env: {}, platform: 'darwin', projectDir: '/p', fs });
const win = (fs = only()): ClientEnv => ({
  homeDir: 'C:\\Users\\ann',
  env: { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' },
  platform: 'win32',
  projectDir: 'C:\\p',
  fs,
});
const linux = (fs = only()): ClientEnv => ({ homeDir: '/home/ann', env: {}, platform: 'linux', projectDir: '/p', fs });

describe('the storage of each host, on macOS, Windows and Linux', () => {
  const CASES = [
    [
      'Cursor',
      '/Users/ann/Library/Application Support/Cursor',
      'C:\\Users\\ann\\AppData\\Roaming\\Cursor',
      '/home/ann/.config/Cursor',
    ],
    [
      'Windsurf',
      '/Users/ann/Library/Application Support/Windsurf',
      'C:\\Users\\ann\\AppData\\Roaming\\Windsurf',
      '/home/ann/.config/Windsurf',
    ],
    [
      'VSCodium',
      '/Users/ann/Library/Application Support/VSCodium',
      'C:\\Users\\ann\\AppData\\Roaming\\VSCodium',
      '/home/ann/.config/VSCodium',
    ],
    [
      'Code - Insiders',
      '/Users/ann/Library/Application Support/Code - Insiders',
      'C:\\Users\\ann\\AppData\\Roaming\\Code - Insiders',
      '/home/ann/.config/Code - Insiders',
    ],
  ] as const;
  const EXTENSIONS = [
    ['cline', 'saoudrizwan.claude-dev', 'cline_mcp_settings.json'],
    ['roo-code', 'rooveterinaryinc.roo-cline', 'mcp_settings.json'],
    ['zoo-code', 'zoocodeorganization.zoo-code', 'mcp_settings.json'],
  ] as const;

  for (const [id, extension, file] of EXTENSIONS) {
    it(`${id}: the host that has the extension, else VS Code`, () => {
      const client = CLIENTS[id];
      for (const [, macDir, winDir, linuxDir] of CASES) {
        const macStorage = `${macDir}/User/globalStorage/${extension}`;
        assert.equal(client.configPath(mac(only(macStorage)), 'user'), `${macStorage}/settings/${file}`);
        const winStorage = `${winDir}\\User\\globalStorage\\${extension}`;
        assert.equal(client.configPath(win(only(winStorage)), 'user'), `${winStorage}\\settings\\${file}`);
        const linuxStorage = `${linuxDir}/User/globalStorage/${extension}`;
        assert.equal(client.configPath(linux(only(linuxStorage)), 'user'), `${linuxStorage}/settings/${file}`);
        assert.equal(client.detectPath(linux(only(linuxStorage))), linuxStorage);
      }
      assert.equal(
        client.configPath(mac(), 'user'),
        `/Users/ann/Library/Application Support/Code/User/globalStorage/${extension}/settings/${file}`,
      );
    });
  }

  it('several hosts: each is listed, in the order VS Code, Insiders, Cursor, Windsurf, VSCodium', () => {
    const storage = (dir: string) => `${dir}/User/globalStorage/saoudrizwan.claude-dev`;
    const env = linux(only(storage('/home/ann/.config/VSCodium'), storage('/home/ann/.config/Cursor')));
    assert.deepEqual(
      CLIENTS.cline.hostsWithExtension?.(env).map((host) => host.label),
      ['Cursor', 'VSCodium'],
    );
  });
});

describe('install, list, doctor and uninstall with Cline in VS Code and Cursor', () => {
  let home: string;
  const storage = (app: string) => join(home, '.config', app, 'User', 'globalStorage', 'saoudrizwan.claude-dev');
  const settings = (app: string) => join(storage(app), 'settings', 'cline_mcp_settings.json');
  const env = { SERVICE_BASE_URL: 'https://acme.example.com/api', SERVICE_ACCESS_TOKEN: 'tok.en' };
  const install = ['mcp', 'install', '--client', 'cline', '--mode', 'remote', '--auth', 'bearer', '--token', 'static'];

  before(async () => {
    home = await tempDir('svcctl-hosts-');
    await mkdir(storage('Code'), { recursive: true });
    await mkdir(storage('Cursor'), { recursive: true });
  });

  it('off a terminal: the entry goes to both, and svcctl says so', async () => {
    const r = await runCli(install, { home, env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Cline is in VS Code, Cursor: the server goes to each \(at a terminal svcctl asks which\)/);
    for (const app of ['Code', 'Cursor']) {
      const file = JSON.parse(await readFile(settings(app), 'utf8')) as { mcpServers: Record<string, { url: string }> };
      assert.equal(file.mcpServers.service?.url, 'https://acme.example.com/mcp', app);
    }
    assert.match(r.stderr, /Cline in Cursor/);
  });

  it('mcp list shows the entry in each', async () => {
    const r = await runCli(['mcp', 'list', '--json'], { home, env });
    assert.equal(r.code, 0, r.stderr);
    const files = (JSON.parse(r.stdout) as { client: string; file: string }[])
      .filter((entry) => entry.client === 'cline')
      .map((entry) => entry.file)
      .sort();
    assert.deepEqual(files, [settings('Code'), settings('Cursor')]);
  });

  it('mcp doctor finds both entries', async () => {
    const r = await runCli(['mcp', 'get', '--client', 'cline'], { home, env });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.ok(r.stderr.includes(settings('Code')) && r.stderr.includes(settings('Cursor')), r.stderr);
  });

  it('mcp uninstall removes it from both', async () => {
    const r = await runCli(['mcp', 'uninstall', '--client', 'cline'], { home, env });
    assert.equal(r.code, 0, r.stderr);
    // svcctl created both files, so they go with the entry (an empty shell of a file is not left behind).
    for (const app of ['Code', 'Cursor'])
      await assert.rejects(readFile(settings(app), 'utf8'), { code: 'ENOENT' }, app);
    assert.match(r.stderr, /Cursor/);
  });

  it('at a terminal: svcctl asks which, all checked; unchecking VS Code writes Cursor only', async () => {
    const asked = await tempDir('svcctl-hosts-');
    const dir = (app: string) => join(asked, '.config', app, 'User', 'globalStorage', 'saoudrizwan.claude-dev');
    await mkdir(dir('Code'), { recursive: true });
    await mkdir(dir('Cursor'), { recursive: true });
    const r = await runAtTerminal(install, {
      home: asked,
      env,
      answers: [[/Cline is in VS Code, Cursor: which should get the server\?/, ' \r']],
    });
    assert.equal(r.code, 0, r.screen);
    assert.match(await readFile(join(dir('Cursor'), 'settings', 'cline_mcp_settings.json'), 'utf8'), /"service"/);
    await assert.rejects(readFile(join(dir('Code'), 'settings', 'cline_mcp_settings.json')), { code: 'ENOENT' });
  });

  it('only in Cursor: Cursor gets it, VS Code gets no file', async () => {
    const alone = await tempDir('svcctl-hosts-');
    const cursor = join(alone, '.config', 'Cursor', 'User', 'globalStorage', 'saoudrizwan.claude-dev');
    await mkdir(cursor, { recursive: true });
    const r = await runCli(install, { home: alone, env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(await readFile(join(cursor, 'settings', 'cline_mcp_settings.json'), 'utf8'), /"service"/);
    await assert.rejects(
      readFile(
        join(
          alone,
          '.config',
          'Code',
          'User',
          'globalStorage',
          'saoudrizwan.claude-dev',
          'settings',
          'cline_mcp_settings.json',
        ),
      ),
    );
  });
});

describe('mcp sync and mcp doctor with Cline in VS Code and Cursor', () => {
  const storage = (home: string, app: string) =>
    join(home, '.config', app, 'User', 'globalStorage', 'saoudrizwan.claude-dev');
  const settings = (home: string, app: string) => join(storage(home, app), 'settings', 'cline_mcp_settings.json');
  async function twoHosts(): Promise<string> {
    const home = await tempDir('svcctl-hosts-');
    for (const app of ['Code', 'Cursor']) await mkdir(storage(home, app), { recursive: true });
    return home;
  }

  it('sync writes the entry into both, and --check then finds both in line', async () => {
    const home = await twoHosts();
    const declaration = 'clients = ["cline"]\n\n[[server]]\nname = "ops"\nbase_url = "https://acme.example.com/api"\n';
    const file = await placeFile(home, 'team/svcctl-mcp.toml', `${declaration}mode = "remote"\nauth = "password"\n`);
    const r = await runCli(['mcp', 'sync', '--file', file, '--yes'], { home, cwd: home });
    assert.equal(r.code, 0, r.stderr);
    for (const app of ['Code', 'Cursor']) {
      const written = JSON.parse(await readFile(settings(home, app), 'utf8')) as {
        mcpServers: Record<string, unknown>;
      };
      assert.deepEqual(Object.keys(written.mcpServers), ['ops'], app);
    }
    assert.match(r.stderr, /Cline in Cursor \(user scope\): added 'ops'/);
    const checked = await runCli(['--json', 'mcp', 'sync', '--file', file, '--check'], { home, cwd: home });
    assert.equal(checked.code, 0, checked.stderr);
    const clients = (JSON.parse(checked.stdout) as { clients: { host: string; file: string }[] }).clients;
    assert.deepEqual(
      clients.map(({ host, file }) => [host, file]),
      [
        ['Code', settings(home, 'Code')],
        ['Cursor', settings(home, 'Cursor')],
      ],
    );
  });

  it('doctor --client cline checks the entry in each host instead of asking which', async () => {
    const home = await twoHosts();
    const server = await startForeignMcpServer({ name: 'other', version: '1.0.0', tools: ['search'] });
    try {
      const entry = { mcpServers: { service: { type: 'streamableHttp', url: server.url } } };
      for (const app of ['Code', 'Cursor']) {
        await mkdir(join(storage(home, app), 'settings'));
        await writeFile(settings(home, app), JSON.stringify(entry));
      }
      const r = await runCli(['mcp', 'doctor', '--client', 'cline'], { home });
      assert.notEqual(r.code, 2, r.stderr);
      assert.match(r.stdout + r.stderr, /2 entries checked/);
      for (const app of ['Code', 'Cursor']) assert.ok((r.stdout + r.stderr).includes(settings(home, app)), app);
    } finally {
      await server.close();
    }
  });
});
