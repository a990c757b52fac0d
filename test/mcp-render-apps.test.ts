/**
 * Golden entries, paths and install links of Visual Studio, LM Studio and
 * Antigravity, written by hand from each client's documentation
 * (docs/clients-editors.md), per mode × auth × secrets, with macOS and Windows
 * paths computed on Linux.
 */
import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import { clientCommand } from '../src/mcp/clients/add-commands.js';
import { CLIENTS } from '../src/mcp/clients/table.js';
import { checkSecrets, defaultSecrets, renderEntry } from '../src/mcp/clients/render-entry.js';
import type { ClientEnv } from '../src/mcp/types.js';
import {
  BASE,
  entryRequest,
  LINUX as linux,
  MAC as mac,
  MCP,
  onlyFiles,
  renderValue as render,
  WIN as win,
  mcpRemoteArgs,
  MCP_REMOTE_BEARER_ARGS,
} from './helpers/mcp-request.js';

const LOCAL = ['-y', 'service-mcp-server@latest'];
const WIN_LOCAL = ['/c', 'npx', ...LOCAL];
const LITERAL_ENV = { SERVICE_EMAIL: 'ann@acme.example', SERVICE_PASSWORD: 'p4ss word' };
const PROXY_ARGS = mcpRemoteArgs();
const PROXY_BEARER_ARGS = MCP_REMOTE_BEARER_ARGS;

test('none of the three expands variables: literal by default, --secrets ref refused; prompt only for Visual Studio', () => {
  for (const client of ['visual-studio', 'lm-studio', 'antigravity'] as const) {
    assert.equal(defaultSecrets({ client }), 'literal', client);
    assert.throws(() => checkSecrets({ client }, 'ref'), /does not expand variables in its config file/);
  }
  assert.doesNotThrow(() => checkSecrets({ client: 'visual-studio' }, 'prompt'));
  assert.throws(
    () => checkSecrets({ client: 'lm-studio' }, 'prompt'),
    /only for VS Code and Visual Studio .*LM Studio takes literal/,
  );
});

describe('Visual Studio: `servers`, type stdio, inputs with word-only ids, no remote entry (headers not documented)', () => {
  it('local: type stdio, literal env; cmd /c npx on Windows', () => {
    assert.deepEqual(render('visual-studio', 'local'), {
      type: 'stdio',
      command: 'npx',
      args: LOCAL,
      env: { ...LITERAL_ENV, SERVICE_BASE_URL: BASE },
    });
    assert.deepEqual(render('visual-studio', 'local', 'password', { platform: 'win32' }), {
      type: 'stdio',
      command: 'cmd',
      args: WIN_LOCAL,
      env: { ...LITERAL_ENV, SERVICE_BASE_URL: BASE },
    });
  });
  it('--secrets prompt: ${input:<name>_<key>} and promptString inputs, - written _', () => {
    const rendered = renderEntry(
      entryRequest('visual-studio', 'local', 'password', { secrets: 'prompt', name: 'my-svc' }),
    );
    assert.deepEqual(rendered.value.env, {
      SERVICE_EMAIL: '${input:my_svc_email}',
      SERVICE_PASSWORD: '${input:my_svc_password}',
      SERVICE_BASE_URL: BASE,
    });
    assert.deepEqual(rendered.extraTopLevel?.inputs, [
      { type: 'promptString', id: 'my_svc_email', description: 'Email for the my-svc MCP server' },
      {
        type: 'promptString',
        id: 'my_svc_password',
        description: 'Password for the my-svc MCP server',
        password: true,
      },
    ]);
    assert.ok(rendered.notes.some((note) => /CodeLens/.test(note)));
  });
  it('remote is refused in both auth methods, pointing at proxy', () => {
    for (const auth of ['password', 'bearer'] as const) {
      assert.throws(
        () => render('visual-studio', 'remote', auth),
        /--mode remote needs headers to log in, and Visual Studio's documentation names no field for a remote server's headers/,
      );
    }
  });
  it('proxy: mcp-remote with header values in env, both auth methods, Windows', () => {
    assert.deepEqual(render('visual-studio', 'proxy'), {
      type: 'stdio',
      command: 'npx',
      args: PROXY_ARGS,
      env: LITERAL_ENV,
    });
    assert.deepEqual(render('visual-studio', 'proxy', 'bearer', { platform: 'win32' }), {
      type: 'stdio',
      command: 'cmd',
      args: ['/c', 'npx', ...PROXY_BEARER_ARGS],
      env: { SERVICE_AUTH_HEADER: 'Bearer tok.en' },
    });
    const prompt = renderEntry(entryRequest('visual-studio', 'proxy', 'bearer', { secrets: 'prompt' }));
    assert.deepEqual(prompt.value.env, { SERVICE_AUTH_HEADER: 'Bearer ${input:service_token}' });
  });
  it('--token helper: a `svcctl mcp proxy` stdio entry, also for --mode remote', () => {
    const value = render('visual-studio', 'remote', 'bearer', {
      tokenHelper: { svcctl: { argv: ['svcctl'], how: 'name' }, canRefresh: true },
    });
    assert.deepEqual(value, { type: 'stdio', command: 'svcctl', args: ['--base-url', BASE, 'mcp', 'proxy'] });
  });
  it('files: %USERPROFILE%\\.mcp.json, <solution>\\.mcp.json, <solution>\\.vs\\mcp.json; the same names elsewhere', () => {
    const client = CLIENTS['visual-studio'];
    assert.deepEqual(client.scopes, ['user', 'project', 'local']);
    assert.equal(client.configPath(win, 'user'), 'C:\\Users\\ann\\.mcp.json');
    assert.equal(client.configPath(win, 'project'), 'C:\\work\\proj\\.mcp.json');
    assert.equal(client.configPath(win, 'local'), 'C:\\work\\proj\\.vs\\mcp.json');
    assert.equal(client.configPath(linux, 'user'), '/home/ann/.mcp.json');
    assert.equal(client.configPath(mac, 'project'), '/Users/ann/proj/.mcp.json');
    assert.equal(client.configPath(linux, 'local'), '/home/ann/proj/.vs/mcp.json');
    for (const scope of client.scopes) assert.deepEqual(client.entryPath('svc', scope, win), ['servers', 'svc']);
    assert.equal(
      client.detectPath({ ...win, env: { LOCALAPPDATA: 'D:\\Local' } }),
      'D:\\Local\\Microsoft\\VisualStudio',
    );
    assert.equal(client.detectPath(win), 'C:\\Users\\ann\\AppData\\Local\\Microsoft\\VisualStudio');
  });
  it('notes: the .mcp.json Claude Code shares (not for .vs\\mcp.json), and Windows only', () => {
    const notes = (extra = {}) =>
      renderEntry(entryRequest('visual-studio', 'local', 'password', extra)).notes.join('\n');
    assert.match(
      notes({ scope: 'project', platform: 'win32' }),
      /Claude Code reads a \.mcp\.json too, under "mcpServers"/,
    );
    assert.doesNotMatch(notes({ scope: 'local', platform: 'win32' }), /Claude Code/);
    assert.doesNotMatch(notes({ platform: 'win32' }), /runs only on Windows/);
    assert.match(notes(), /Visual Studio runs only on Windows/);
  });
  it('install link: vsweb+mcp:/install? and the URL-encoded entry with its name; prompt refused', () => {
    const request = entryRequest('visual-studio', 'proxy', 'bearer', {
      tokenHelper: { svcctl: { argv: ['svcctl'], how: 'name' }, canRefresh: true },
    });
    const command = clientCommand(CLIENTS['visual-studio'], request, renderEntry(request));
    assert.equal(command.command, null);
    const json = { name: 'service', type: 'stdio', command: 'svcctl', args: ['--base-url', BASE, 'mcp', 'proxy'] };
    assert.deepEqual(command.links, [
      { kind: 'visual-studio', url: `vsweb+mcp:/install?${encodeURIComponent(JSON.stringify(json))}` },
    ]);
    const prompt = entryRequest('visual-studio', 'local', 'password', { secrets: 'prompt' });
    assert.throws(
      () => clientCommand(CLIENTS['visual-studio'], prompt, renderEntry(prompt)),
      /no documented place for inputs/,
    );
  });
});

describe('LM Studio: Cursor notation (url + headers) under mcpServers in <LM Studio home>/mcp.json', () => {
  it('local, remote (both auth), proxy; cmd /c npx on Windows', () => {
    assert.deepEqual(render('lm-studio', 'local'), {
      command: 'npx',
      args: LOCAL,
      env: { ...LITERAL_ENV, SERVICE_BASE_URL: BASE },
    });
    assert.deepEqual(render('lm-studio', 'local', 'password', { platform: 'win32' }).args, WIN_LOCAL);
    assert.deepEqual(render('lm-studio', 'remote'), {
      url: MCP,
      headers: { 'X-Service-Email': 'ann@acme.example', 'X-Service-Password': 'p4ss word' },
    });
    assert.deepEqual(render('lm-studio', 'remote', 'bearer'), {
      url: MCP,
      headers: { Authorization: 'Bearer tok.en' },
    });
    assert.deepEqual(render('lm-studio', 'proxy'), { command: 'npx', args: PROXY_ARGS, env: LITERAL_ENV });
    assert.deepEqual(render('lm-studio', 'proxy', 'bearer', { platform: 'win32' }), {
      command: 'cmd',
      args: ['/c', 'npx', ...PROXY_BEARER_ARGS],
      env: { SERVICE_AUTH_HEADER: 'Bearer tok.en' },
    });
  });
  it('home: LMSTUDIO_HOME, then ~/.lmstudio-home-pointer, then ~/.cache/lm-studio when it exists, then ~/.lmstudio', () => {
    const client = CLIENTS['lm-studio'];
    assert.deepEqual(client.scopes, ['user']);
    assert.equal(client.configPath(mac, 'user'), '/Users/ann/.lmstudio/mcp.json');
    assert.equal(client.configPath(linux, 'user'), '/home/ann/.lmstudio/mcp.json');
    assert.equal(client.configPath(win, 'user'), 'C:\\Users\\ann\\.lmstudio\\mcp.json');
    assert.equal(
      client.configPath({ ...mac, fs: onlyFiles('/Users/ann/.cache/lm-studio') }, 'user'),
      '/Users/ann/.cache/lm-studio/mcp.json',
    );
    const pointer: ClientEnv = {
      ...linux,
      fs: {
        ...onlyFiles('/home/ann/.cache/lm-studio'),
        readText: (p) => (p === '/home/ann/.lmstudio-home-pointer' ? '/data/lms\n' : undefined),
      },
    };
    assert.equal(client.configPath(pointer, 'user'), '/data/lms/mcp.json');
    assert.equal(client.configPath({ ...pointer, env: { LMSTUDIO_HOME: '/opt/lms' } }, 'user'), '/opt/lms/mcp.json');
    assert.equal(
      client.configPath({ ...win, env: { ...win.env, LMSTUDIO_HOME: 'D:\\LMS' } }, 'user'),
      'D:\\LMS\\mcp.json',
    );
    assert.deepEqual(client.entryPath('svc', 'user', linux), ['mcpServers', 'svc']);
  });
  it('install link: lmstudio://add_mcp with name and the base64 entry; no lmstudio.ai link for literal secrets', () => {
    const request = entryRequest('lm-studio', 'remote', 'bearer');
    const rendered = renderEntry(request);
    const config = encodeURIComponent(
      Buffer.from(JSON.stringify({ url: MCP, headers: { Authorization: 'Bearer tok.en' } })).toString('base64'),
    );
    const command = clientCommand(CLIENTS['lm-studio'], request, rendered);
    assert.deepEqual(command.links, [{ kind: 'lm-studio', url: `lmstudio://add_mcp?name=service&config=${config}` }]);
    assert.deepEqual(command.notes, [
      'no lmstudio.ai link: a link that leaves this machine never carries literal secrets; the local link opens LM Studio directly',
    ]);
  });
});

describe('Antigravity: serverUrl + headers under mcpServers in the file the installed version reads', () => {
  it('local, remote (both auth), proxy; cmd /c npx on Windows', () => {
    assert.deepEqual(render('antigravity', 'local'), {
      command: 'npx',
      args: LOCAL,
      env: { ...LITERAL_ENV, SERVICE_BASE_URL: BASE },
    });
    assert.deepEqual(render('antigravity', 'local', 'password', { platform: 'win32' }).args, WIN_LOCAL);
    assert.deepEqual(render('antigravity', 'remote'), {
      serverUrl: MCP,
      headers: { 'X-Service-Email': 'ann@acme.example', 'X-Service-Password': 'p4ss word' },
    });
    assert.deepEqual(render('antigravity', 'remote', 'bearer'), {
      serverUrl: MCP,
      headers: { Authorization: 'Bearer tok.en' },
    });
    assert.deepEqual(render('antigravity', 'proxy'), { command: 'npx', args: PROXY_ARGS, env: LITERAL_ENV });
    assert.deepEqual(render('antigravity', 'proxy', 'bearer', { platform: 'win32' }), {
      command: 'cmd',
      args: ['/c', 'npx', ...PROXY_BEARER_ARGS],
      env: { SERVICE_AUTH_HEADER: 'Bearer tok.en' },
    });
  });
  it('Antigravity 2 and agy (or nothing installed yet): ~/.gemini/config/mcp_config.json; a workspace: .agents/mcp_config.json; no add command', () => {
    const client = CLIENTS.antigravity;
    assert.deepEqual(client.scopes, ['user', 'project']);
    // Nothing on disk: the newest version's file (a fresh install of Antigravity reads it).
    const none = onlyFiles();
    assert.equal(client.configPath({ ...mac, fs: none }, 'user'), '/Users/ann/.gemini/config/mcp_config.json');
    assert.equal(client.configPath({ ...linux, fs: none }, 'user'), '/home/ann/.gemini/config/mcp_config.json');
    assert.equal(client.configPath({ ...win, fs: none }, 'user'), 'C:\\Users\\ann\\.gemini\\config\\mcp_config.json');
    // Antigravity 2 keeps ~/.gemini/antigravity/ for its other state: the unified folder decides.
    const v2 = onlyFiles('/home/ann/.gemini/antigravity', '/home/ann/.gemini/config');
    assert.equal(client.configPath({ ...linux, fs: v2 }, 'user'), '/home/ann/.gemini/config/mcp_config.json');
    // agy alone leaves ~/.gemini/antigravity-cli/.
    const agy = onlyFiles('/home/ann/.gemini/antigravity', '/home/ann/.gemini/antigravity-cli');
    assert.equal(client.configPath({ ...linux, fs: agy }, 'user'), '/home/ann/.gemini/config/mcp_config.json');
    assert.equal(client.configPath({ ...linux, fs: none }, 'project'), '/home/ann/proj/.agents/mcp_config.json');
    const request = entryRequest('antigravity', 'remote');
    assert.throws(
      () => clientCommand(client, request, renderEntry(request)),
      /Antigravity has no command line or install link/,
    );
  });
  it('Antigravity 1 alone (its folder, no unified one): ~/.gemini/antigravity/mcp_config.json, and the unified file is then the stale one', async () => {
    const { otherPlaces } = await import('../src/mcp/clients/versions.js');
    const staleFiles: typeof otherPlaces = (...args) => otherPlaces(...args).filter((place) => place.stale);
    const v1: ClientEnv = { ...linux, fs: onlyFiles('/home/ann/.gemini/antigravity') };
    assert.equal(CLIENTS.antigravity.configPath(v1, 'user'), '/home/ann/.gemini/antigravity/mcp_config.json');
    assert.deepEqual(
      staleFiles(CLIENTS.antigravity, v1, 'user').map((stale) => stale.file),
      ['/home/ann/.gemini/config/mcp_config.json'],
    );
    const v2: ClientEnv = { ...linux, fs: onlyFiles('/home/ann/.gemini/config') };
    assert.deepEqual(
      staleFiles(CLIENTS.antigravity, v2, 'user').map((stale) => [stale.file, stale.readBy, stale.currentReader]),
      [['/home/ann/.gemini/antigravity/mcp_config.json', 'Antigravity 1', 'Antigravity 2 and agy']],
    );
    assert.deepEqual(staleFiles(CLIENTS.antigravity, v2, 'project'), [], 'one workspace file for every version');
  });
  it('local and proxy entries carry no `type` (Antigravity drops an entry with type "stdio")', () => {
    for (const mode of ['local', 'proxy'] as const)
      assert.equal(Object.hasOwn(render('antigravity', mode), 'type'), false);
  });
});

test("doctor: a remote entry with headers in Visual Studio's file is flagged (no documented headers field); one without passes", async () => {
  const { entryRuleFailure } = await import('../src/mcp/doctor/client-rules.js');
  type Plan = Parameters<typeof entryRuleFailure>[3];
  const plan = { mode: 'remote' } as Plan;
  const flagged = entryRuleFailure(
    CLIENTS['visual-studio'],
    'svc',
    { type: 'http', url: MCP, headers: { Authorization: 'Bearer x' } },
    plan,
  );
  assert.match(flagged?.detail ?? '', /names no field for a remote server's headers/);
  assert.match(flagged?.fix ?? '', /svcctl mcp install --client visual-studio --mode proxy --force/);
  assert.equal(entryRuleFailure(CLIENTS['visual-studio'], 'svc', { type: 'http', url: MCP }, plan), undefined);
});
