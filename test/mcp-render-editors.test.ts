/**
 * Golden entries and paths of the editors of issue 9 (Roo Code, Kiro), written
 * by hand from each client's documentation and source (docs/clients-editors.md),
 * per mode × auth, with macOS and Windows paths computed on Linux.
 */
import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import { CLIENTS } from '../src/mcp/clients/table.js';
import { defaultSecrets } from '../src/mcp/clients/render-entry.js';
import type { Scope } from '../src/mcp/types.js';
import {
  BASE,
  LINUX as linux,
  MAC as mac,
  MCP,
  renderValue as render,
  WIN as win,
  mcpRemoteArgs,
  MCP_REMOTE_BEARER_ARGS,
} from './helpers/mcp-request.js';

const LOCAL = ['-y', 'service-mcp-server@latest'];

test('Roo Code and Kiro take references by default', () => {
  assert.equal(defaultSecrets({ client: 'roo-code' }), 'ref');
  assert.equal(defaultSecrets({ client: 'kiro' }), 'ref');
});

describe('Roo Code: type "streamable-http", ${env:VAR} (injectVariables), no cmd wrap (McpHub wraps itself)', () => {
  const env = { SERVICE_EMAIL: '${env:SERVICE_EMAIL}', SERVICE_PASSWORD: '${env:SERVICE_PASSWORD}' };
  it('local', () => {
    const expected = { command: 'npx', args: LOCAL, env: { ...env, SERVICE_BASE_URL: BASE } };
    assert.deepEqual(render('roo-code', 'local'), expected);
    assert.deepEqual(render('roo-code', 'local', 'password', { platform: 'win32' }), expected);
  });
  it('remote, both auth methods', () => {
    assert.deepEqual(render('roo-code', 'remote'), {
      type: 'streamable-http',
      url: MCP,
      headers: { 'X-Service-Email': '${env:SERVICE_EMAIL}', 'X-Service-Password': '${env:SERVICE_PASSWORD}' },
    });
    assert.deepEqual(render('roo-code', 'remote', 'bearer'), {
      type: 'streamable-http',
      url: MCP,
      headers: { Authorization: 'Bearer ${env:SERVICE_ACCESS_TOKEN}' },
    });
  });
  it('proxy: mcp-remote ${VAR} arguments are not Roo syntax, so they pass through; the env block carries ${env:…}', () => {
    assert.deepEqual(render('roo-code', 'proxy'), {
      command: 'npx',
      args: mcpRemoteArgs(),
      env,
    });
    assert.deepEqual(render('roo-code', 'proxy', 'bearer', { platform: 'win32' }), {
      command: 'npx',
      args: MCP_REMOTE_BEARER_ARGS,
      env: { SERVICE_AUTH_HEADER: 'Bearer ${env:SERVICE_ACCESS_TOKEN}' },
    });
  });
});

describe('Kiro: url + headers, ${VAR} only for approved variables (others kept as written)', () => {
  const env = { SERVICE_EMAIL: '${SERVICE_EMAIL}', SERVICE_PASSWORD: '${SERVICE_PASSWORD}' };
  it('local, with cmd /c on Windows', () => {
    assert.deepEqual(render('kiro', 'local'), { command: 'npx', args: LOCAL, env: { ...env, SERVICE_BASE_URL: BASE } });
    assert.deepEqual(render('kiro', 'local', 'password', { platform: 'win32' }), {
      command: 'cmd',
      args: ['/c', 'npx', ...LOCAL],
      env: { ...env, SERVICE_BASE_URL: BASE },
    });
  });
  it('remote, both auth methods', () => {
    assert.deepEqual(render('kiro', 'remote'), {
      url: MCP,
      headers: { 'X-Service-Email': '${SERVICE_EMAIL}', 'X-Service-Password': '${SERVICE_PASSWORD}' },
    });
    assert.deepEqual(render('kiro', 'remote', 'bearer'), {
      url: MCP,
      headers: { Authorization: 'Bearer ${SERVICE_ACCESS_TOKEN}' },
    });
  });
  it('proxy: header variables only the entry sets (unapproved, so Kiro leaves them for mcp-remote)', () => {
    assert.deepEqual(render('kiro', 'proxy'), {
      command: 'npx',
      args: mcpRemoteArgs('${SVCCTL_HEADER_SERVICE_EMAIL}', '${SVCCTL_HEADER_SERVICE_PASSWORD}'),
      env: { SVCCTL_HEADER_SERVICE_EMAIL: '${SERVICE_EMAIL}', SVCCTL_HEADER_SERVICE_PASSWORD: '${SERVICE_PASSWORD}' },
    });
    assert.deepEqual(render('kiro', 'proxy', 'bearer'), {
      command: 'npx',
      args: ['mcp-remote', MCP, '--header', 'Authorization:${SVCCTL_HEADER_SERVICE_AUTH_HEADER}'],
      env: { SVCCTL_HEADER_SERVICE_AUTH_HEADER: 'Bearer ${SERVICE_ACCESS_TOKEN}' },
    });
  });
});

describe('Goose: extensions.<key> in YAML; variables forwarded by name (env_keys), headers filled from them', () => {
  const head = { enabled: true, type: 'stdio', name: 'service', description: '' };
  it('local: envs for the base URL, env_keys for the credentials; literal values in envs', () => {
    assert.deepEqual(render('goose', 'local'), {
      ...head,
      cmd: 'npx',
      args: LOCAL,
      envs: { SERVICE_BASE_URL: BASE },
      env_keys: ['SERVICE_EMAIL', 'SERVICE_PASSWORD'],
      timeout: 300,
    });
    assert.deepEqual(
      render('goose', 'local', 'password', { secrets: 'literal', literals: { email: 'a@b.example', password: 'pw' } }),
      {
        ...head,
        cmd: 'npx',
        args: LOCAL,
        envs: { SERVICE_EMAIL: 'a@b.example', SERVICE_PASSWORD: 'pw', SERVICE_BASE_URL: BASE },
        timeout: 300,
      },
    );
    assert.deepEqual(render('goose', 'local', 'password', { platform: 'win32' }).args, ['/c', 'npx', ...LOCAL]);
  });
  it('remote: streamable_http, uri, headers with ${VAR} of env_keys; bearer', () => {
    const remote = { enabled: true, type: 'streamable_http', name: 'service', description: '', uri: MCP };
    assert.deepEqual(render('goose', 'remote'), {
      ...remote,
      headers: { 'X-Service-Email': '${SERVICE_EMAIL}', 'X-Service-Password': '${SERVICE_PASSWORD}' },
      env_keys: ['SERVICE_EMAIL', 'SERVICE_PASSWORD'],
      timeout: 300,
    });
    assert.deepEqual(render('goose', 'remote', 'bearer'), {
      ...remote,
      headers: { Authorization: 'Bearer ${SERVICE_ACCESS_TOKEN}' },
      env_keys: ['SERVICE_ACCESS_TOKEN'],
      timeout: 300,
    });
    assert.deepEqual(render('goose', 'remote', 'bearer', { secrets: 'literal', literals: { token: 'tok' } }), {
      ...remote,
      headers: { Authorization: 'Bearer tok' },
      timeout: 300,
    });
  });
  it('proxy: mcp-remote expands ${VAR} from the variables Goose forwards; on Windows the bearer comes whole from SERVICE_AUTH_HEADER', () => {
    assert.deepEqual(render('goose', 'proxy'), {
      ...head,
      cmd: 'npx',
      args: mcpRemoteArgs(),
      env_keys: ['SERVICE_EMAIL', 'SERVICE_PASSWORD'],
      timeout: 300,
    });
    assert.deepEqual(render('goose', 'proxy', 'bearer'), {
      ...head,
      cmd: 'npx',
      args: ['mcp-remote', MCP, '--header', 'Authorization:Bearer ${SERVICE_ACCESS_TOKEN}'],
      env_keys: ['SERVICE_ACCESS_TOKEN'],
      timeout: 300,
    });
    assert.deepEqual(render('goose', 'proxy', 'bearer', { platform: 'win32' }), {
      ...head,
      cmd: 'cmd',
      args: ['/c', 'npx', 'mcp-remote', MCP, '--header', 'Authorization:${SERVICE_AUTH_HEADER}'],
      env_keys: ['SERVICE_AUTH_HEADER'],
      timeout: 300,
    });
  });
  it('config.yaml per OS, one scope; the map key is the lower-cased name', () => {
    const client = CLIENTS.goose;
    assert.deepEqual(client.scopes, ['user']);
    assert.equal(client.configPath(mac, 'user'), '/Users/ann/.config/goose/config.yaml');
    assert.equal(client.configPath(linux, 'user'), '/home/ann/.config/goose/config.yaml');
    assert.equal(client.configPath(win, 'user'), 'C:\\Users\\ann\\AppData\\Roaming\\Block\\goose\\config\\config.yaml');
    assert.deepEqual(client.entryPath('My-Server', 'user', linux), ['extensions', 'my-server']);
  });
});

const ROO = 'globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json';
const paths: Record<'roo-code' | 'kiro', Record<'user' | 'project', [string, string, string]>> = {
  'roo-code': {
    user: [
      `/Users/ann/Library/Application Support/Code/User/${ROO}`,
      `/home/ann/.config/Code/User/${ROO}`,
      `C:\\Users\\ann\\AppData\\Roaming\\Code\\User\\${ROO.replaceAll('/', '\\')}`,
    ],
    project: ['/Users/ann/proj/.roo/mcp.json', '/home/ann/proj/.roo/mcp.json', 'C:\\work\\proj\\.roo\\mcp.json'],
  },
  kiro: {
    user: [
      '/Users/ann/.kiro/settings/mcp.json',
      '/home/ann/.kiro/settings/mcp.json',
      'C:\\Users\\ann\\.kiro\\settings\\mcp.json',
    ],
    project: [
      '/Users/ann/proj/.kiro/settings/mcp.json',
      '/home/ann/proj/.kiro/settings/mcp.json',
      'C:\\work\\proj\\.kiro\\settings\\mcp.json',
    ],
  },
};

for (const [id, scopes] of Object.entries(paths)) {
  it(`${id}: config paths per OS and scope`, () => {
    const client = CLIENTS[id as 'kiro'];
    assert.deepEqual(client.scopes, ['user', 'project']);
    for (const [scope, [darwinPath, linuxPath, winPath]] of Object.entries(scopes)) {
      assert.equal(client.configPath(mac, scope as Scope), darwinPath, `${id} ${scope} macOS`);
      assert.equal(client.configPath(linux, scope as Scope), linuxPath, `${id} ${scope} Linux`);
      assert.equal(client.configPath(win, scope as Scope), winPath, `${id} ${scope} Windows`);
    }
  });
}
