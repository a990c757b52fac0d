/**
 * Golden entries and paths of the clients add-mcp, install-mcp and Smithery
 * had and svcctl lacked (VS Code Insiders, Cline CLI, Amazon Q Developer CLI),
 * written by hand from each client's source (docs/clients-editors.md,
 * docs/clients-agents.md): VS Code's userDataPath.ts with the Insiders product
 * name; @cline/shared's storage paths and @cline/core's settings schema (the
 * entries `cline mcp add` 3.0.65 wrote in a temp HOME); Q CLI's
 * directories.rs, custom_tool.rs and mcp_client/client.rs; Warp's mod.rs
 * (MCPProvider paths), warp_core paths.rs, file_mcp_watcher.rs and parsing.rs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CliError } from '../src/core/errors.js';
import { clientCommand } from '../src/mcp/clients/add-commands.js';
import { defaultSecrets, renderEntry } from '../src/mcp/clients/render-entry.js';
import { CLIENTS } from '../src/mcp/clients/table.js';
import type { ClientEnv } from '../src/mcp/types.js';
import {
  BASE,
  entryRequest,
  LINUX as linux,
  MAC as mac,
  MCP,
  MCP_REMOTE_BEARER_ARGS,
  mcpRemoteArgs,
  renderValue as render,
  WIN as win,
} from './helpers/mcp-request.js';

const LOCAL = ['-y', 'service-mcp-server@latest'];
const withEnv = (base: ClientEnv, env: NodeJS.ProcessEnv): ClientEnv => ({ ...base, env: { ...base.env, ...env } });
const refEnv = { SERVICE_EMAIL: '${env:SERVICE_EMAIL}', SERVICE_PASSWORD: '${env:SERVICE_PASSWORD}' };
const refHeaders = { 'X-Service-Email': '${env:SERVICE_EMAIL}', 'X-Service-Password': '${env:SERVICE_PASSWORD}' };

describe('VS Code Insiders: VS Code\'s entries in the "Code - Insiders" user folder', () => {
  it('user mcp.json per OS (XDG_CONFIG_HOME on Linux, APPDATA on Windows); one scope', () => {
    const path = (env: ClientEnv) => CLIENTS['vscode-insiders'].configPath(env, 'user');
    assert.equal(path(mac), '/Users/ann/Library/Application Support/Code - Insiders/User/mcp.json');
    assert.equal(path(linux), '/home/ann/.config/Code - Insiders/User/mcp.json');
    assert.equal(path(win), 'C:\\Users\\ann\\AppData\\Roaming\\Code - Insiders\\User\\mcp.json');
    assert.equal(path(withEnv(linux, { XDG_CONFIG_HOME: '/xdg' })), '/xdg/Code - Insiders/User/mcp.json');
    assert.deepEqual(CLIENTS['vscode-insiders'].scopes, ['user']);
    assert.deepEqual(CLIENTS['vscode-insiders'].entryPath('service', 'user', linux), ['servers', 'service']);
  });
  it('entries as VS Code: type stdio / http, ${env:VAR}', () => {
    assert.deepEqual(render('vscode-insiders', 'local'), {
      type: 'stdio',
      command: 'npx',
      args: LOCAL,
      env: { ...refEnv, SERVICE_BASE_URL: BASE },
    });
    assert.deepEqual(render('vscode-insiders', 'remote', 'bearer'), {
      type: 'http',
      url: MCP,
      headers: { Authorization: 'Bearer ${env:SERVICE_ACCESS_TOKEN}' },
    });
  });
  it('code-insiders --add-mcp and a vscode-insiders: link', () => {
    const request = entryRequest('vscode-insiders', 'remote', 'bearer');
    const json =
      '{"name":"service","type":"http","url":"https://acme.example.com/mcp","headers":{"Authorization":"Bearer ${env:SERVICE_ACCESS_TOKEN}"}}';
    const command = clientCommand(CLIENTS['vscode-insiders'], request, renderEntry(request));
    assert.equal(command.command, `code-insiders --add-mcp '${json}'`);
    assert.deepEqual(command.links, [
      { kind: 'vscode', url: `vscode-insiders:mcp/install?${encodeURIComponent(json)}` },
    ]);
  });
});

describe("Cline CLI: ~/.cline/data/settings/cline_mcp_settings.json, Cline's entries, no variables", () => {
  const path = (env: ClientEnv) => CLIENTS['cline-cli'].configPath(env, 'user');
  it('per OS, and CLINE_MCP_SETTINGS_PATH > CLINE_DATA_DIR > CLINE_DIR', () => {
    assert.equal(path(mac), '/Users/ann/.cline/data/settings/cline_mcp_settings.json');
    assert.equal(path(linux), '/home/ann/.cline/data/settings/cline_mcp_settings.json');
    assert.equal(path(win), 'C:\\Users\\ann\\.cline\\data\\settings\\cline_mcp_settings.json');
    assert.equal(path(withEnv(linux, { CLINE_DIR: '/c' })), '/c/data/settings/cline_mcp_settings.json');
    assert.equal(
      path(withEnv(linux, { CLINE_DIR: '/c', CLINE_DATA_DIR: '/d' })),
      '/d/settings/cline_mcp_settings.json',
    );
    assert.equal(
      path(withEnv(linux, { CLINE_DIR: '/c', CLINE_DATA_DIR: '/d', CLINE_MCP_SETTINGS_PATH: '/m.json' })),
      '/m.json',
    );
    assert.equal(CLIENTS['cline-cli'].detectPath(withEnv(linux, { CLINE_DIR: '/c' })), '/c');
    assert.deepEqual(CLIENTS['cline-cli'].entryPath('service', 'user', linux), ['mcpServers', 'service']);
  });
  it('literal values by default (the CLI expands no ${env:VAR}); streamableHttp for remote; no cmd wrap', () => {
    assert.equal(defaultSecrets({ client: 'cline-cli' }), 'literal');
    const literalEnv = { SERVICE_EMAIL: 'ann@acme.example', SERVICE_PASSWORD: 'p4ss word' };
    const local = { command: 'npx', args: LOCAL, env: { ...literalEnv, SERVICE_BASE_URL: BASE } };
    assert.deepEqual(render('cline-cli', 'local'), local);
    assert.deepEqual(render('cline-cli', 'local', 'password', { platform: 'win32' }), local);
    assert.deepEqual(render('cline-cli', 'remote', 'bearer'), {
      type: 'streamableHttp',
      url: MCP,
      headers: { Authorization: 'Bearer tok.en' },
    });
    assert.deepEqual(render('cline-cli', 'proxy'), { command: 'npx', args: mcpRemoteArgs(), env: literalEnv });
  });
});

describe('Amazon Q Developer CLI: the mcp.json of its default agent, ${env:VAR} in env and headers', () => {
  it('~/.aws/amazonq/mcp.json on every OS; <project>/.amazonq/mcp.json', () => {
    const client = CLIENTS['amazon-q'];
    assert.equal(client.configPath(mac, 'user'), '/Users/ann/.aws/amazonq/mcp.json');
    assert.equal(client.configPath(linux, 'user'), '/home/ann/.aws/amazonq/mcp.json');
    assert.equal(client.configPath(win, 'user'), 'C:\\Users\\ann\\.aws\\amazonq\\mcp.json');
    assert.equal(client.configPath(linux, 'project'), '/home/ann/proj/.amazonq/mcp.json');
    assert.equal(client.configPath(win, 'project'), 'C:\\work\\proj\\.amazonq\\mcp.json');
    assert.deepEqual(client.scopes, ['user', 'project']);
    assert.deepEqual(client.entryPath('service', 'project', linux), ['mcpServers', 'service']);
  });
  it('local (cmd /c npx on Windows: no shell), remote type http, proxy args left to mcp-remote', () => {
    assert.equal(defaultSecrets({ client: 'amazon-q' }), 'ref');
    const env = { ...refEnv, SERVICE_BASE_URL: BASE };
    assert.deepEqual(render('amazon-q', 'local'), { command: 'npx', args: LOCAL, env });
    assert.deepEqual(render('amazon-q', 'local', 'password', { platform: 'win32' }), {
      command: 'cmd',
      args: ['/c', 'npx', ...LOCAL],
      env,
    });
    assert.deepEqual(render('amazon-q', 'remote'), { type: 'http', url: MCP, headers: refHeaders });
    assert.deepEqual(render('amazon-q', 'proxy', 'bearer'), {
      command: 'npx',
      args: MCP_REMOTE_BEARER_ARGS,
      env: { SERVICE_AUTH_HEADER: 'Bearer ${env:SERVICE_ACCESS_TOKEN}' },
    });
  });
});

describe('Warp: ~/.warp/.mcp.json, ${VAR} over the whole file, no proxy entry', () => {
  it('~/.warp/.mcp.json on every OS; <project>/.warp/.mcp.json', () => {
    const client = CLIENTS.warp;
    assert.equal(client.configPath(mac, 'user'), '/Users/ann/.warp/.mcp.json');
    assert.equal(client.configPath(linux, 'user'), '/home/ann/.warp/.mcp.json');
    assert.equal(client.configPath(win, 'user'), 'C:\\Users\\ann\\.warp\\.mcp.json');
    assert.equal(client.configPath(linux, 'project'), '/home/ann/proj/.warp/.mcp.json');
    assert.deepEqual(client.entryPath('service', 'user', linux), ['mcpServers', 'service']);
  });
  it('local and remote entries without a type field, ${VAR} references', () => {
    assert.equal(defaultSecrets({ client: 'warp' }), 'ref');
    assert.deepEqual(render('warp', 'local'), {
      command: 'npx',
      args: LOCAL,
      env: { SERVICE_EMAIL: '${SERVICE_EMAIL}', SERVICE_PASSWORD: '${SERVICE_PASSWORD}', SERVICE_BASE_URL: BASE },
    });
    assert.deepEqual(render('warp', 'remote', 'bearer'), {
      url: MCP,
      headers: { Authorization: 'Bearer ${SERVICE_ACCESS_TOKEN}' },
    });
    const notes = renderEntry(entryRequest('warp', 'remote')).notes;
    assert.ok(notes.some((note) => note.startsWith('Warp starts none of the servers in this file while one ${VAR}')));
  });
  it("--mode proxy is refused: Warp would put the secrets on mcp-remote's command line", () => {
    assert.throws(
      () => render('warp', 'proxy'),
      (error: unknown) =>
        error instanceof CliError &&
        /^Warp cannot hold a mcp-remote entry \(Warp fills every \$\{VAR\} of the file, args included/.test(
          error.message,
        ),
    );
  });
});
