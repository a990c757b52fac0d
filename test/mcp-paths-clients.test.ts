/**
 * Golden paths of every client's config file per OS and scope, written by hand
 * from the MCP clients reference (§A.1), not from the code's output. Windows
 * paths are computed on any OS (path.win32).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLIENTS, detectInstalledClients } from '../src/mcp/clients/table.js';
import type { ClientEnv, ClientId, Scope } from '../src/mcp/types.js';

const noFs = { exists: () => false, list: () => [] };

const mac: ClientEnv = { homeDir: '/Users/ann', env: {}, platform: 'darwin', projectDir: '/Users/ann/proj', fs: noFs };
const linux: ClientEnv = { homeDir: '/home/ann', env: {}, platform: 'linux', projectDir: '/home/ann/proj', fs: noFs };
const win: ClientEnv = {
  homeDir: 'C:\\Users\\ann',
  env: { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming', LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local' },
  platform: 'win32',
  projectDir: 'C:\\work\\proj',
  fs: noFs,
};

const userPaths: Partial<Record<ClientId, [string, string, string]>> = {
  'claude-desktop': [
    '/Users/ann/Library/Application Support/Claude/claude_desktop_config.json',
    '/home/ann/.config/Claude/claude_desktop_config.json',
    'C:\\Users\\ann\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
  ],
  'claude-code': ['/Users/ann/.claude.json', '/home/ann/.claude.json', 'C:\\Users\\ann\\.claude.json'],
  cursor: ['/Users/ann/.cursor/mcp.json', '/home/ann/.cursor/mcp.json', 'C:\\Users\\ann\\.cursor\\mcp.json'],
  vscode: [
    '/Users/ann/Library/Application Support/Code/User/mcp.json',
    '/home/ann/.config/Code/User/mcp.json',
    'C:\\Users\\ann\\AppData\\Roaming\\Code\\User\\mcp.json',
  ],
  windsurf: [
    '/Users/ann/.codeium/windsurf/mcp_config.json',
    '/home/ann/.codeium/windsurf/mcp_config.json',
    'C:\\Users\\ann\\.codeium\\windsurf\\mcp_config.json',
  ],
  codex: ['/Users/ann/.codex/config.toml', '/home/ann/.codex/config.toml', 'C:\\Users\\ann\\.codex\\config.toml'],
  gemini: [
    '/Users/ann/.gemini/settings.json',
    '/home/ann/.gemini/settings.json',
    'C:\\Users\\ann\\.gemini\\settings.json',
  ],
  cline: [
    '/Users/ann/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
    '/home/ann/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
    'C:\\Users\\ann\\AppData\\Roaming\\Code\\User\\globalStorage\\saoudrizwan.claude-dev\\settings\\cline_mcp_settings.json',
  ],
  zed: [
    '/Users/ann/.config/zed/settings.json',
    '/home/ann/.config/zed/settings.json',
    'C:\\Users\\ann\\AppData\\Roaming\\Zed\\settings.json',
  ],
};

for (const [id, [darwinPath, linuxPath, winPath]] of Object.entries(userPaths) as [
  ClientId,
  [string, string, string],
][]) {
  test(`user-scope file of ${id} on macOS, Linux and Windows`, () => {
    const client = CLIENTS[id];
    assert.equal(client.configPath(mac, 'user'), darwinPath);
    assert.equal(client.configPath(linux, 'user'), linuxPath);
    assert.equal(client.configPath(win, 'user'), winPath);
  });
}

const projectPaths: Partial<Record<ClientId, [string, string]>> = {
  'claude-code': ['/home/ann/proj/.mcp.json', 'C:\\work\\proj\\.mcp.json'],
  cursor: ['/home/ann/proj/.cursor/mcp.json', 'C:\\work\\proj\\.cursor\\mcp.json'],
  vscode: ['/home/ann/proj/.vscode/mcp.json', 'C:\\work\\proj\\.vscode\\mcp.json'],
  codex: ['/home/ann/proj/.codex/config.toml', 'C:\\work\\proj\\.codex\\config.toml'],
  gemini: ['/home/ann/proj/.gemini/settings.json', 'C:\\work\\proj\\.gemini\\settings.json'],
  zed: ['/home/ann/proj/.zed/settings.json', 'C:\\work\\proj\\.zed\\settings.json'],
};

test('project-scope files, and which clients have which scopes', () => {
  for (const [id, [linuxPath, winPath]] of Object.entries(projectPaths) as [ClientId, [string, string]][]) {
    assert.equal(CLIENTS[id].configPath(linux, 'project'), linuxPath, id);
    assert.equal(CLIENTS[id].configPath(win, 'project'), winPath, id);
  }
  // The first nine clients; the rows added later check their scopes in their own test files.
  const scopes = Object.fromEntries(
    Object.values(CLIENTS)
      .slice(0, 9)
      .map((c) => [c.id, [...c.scopes]]),
  );
  assert.deepEqual(scopes, {
    'claude-desktop': ['user'],
    'claude-code': ['user', 'project', 'local'],
    cursor: ['user', 'project'],
    vscode: ['user', 'project'],
    windsurf: ['user'],
    codex: ['user', 'project'],
    gemini: ['user', 'project'],
    cline: ['user'],
    zed: ['user', 'project'],
  });
});

test('entry key paths: mcpServers, servers (VS Code), context_servers (Zed), mcp_servers (Codex), projects[dir] (Claude Code local)', () => {
  const at = (id: ClientId, scope: Scope = 'user', env = linux) => CLIENTS[id].entryPath('svc', scope, env);
  assert.deepEqual(at('claude-desktop'), ['mcpServers', 'svc']);
  assert.deepEqual(at('claude-code'), ['mcpServers', 'svc']);
  assert.deepEqual(at('claude-code', 'project'), ['mcpServers', 'svc']);
  assert.deepEqual(at('claude-code', 'local'), ['projects', '/home/ann/proj', 'mcpServers', 'svc']);
  // Claude Code 2.1.332 keys a Windows folder with `/` (its `replaceAll("\\", "/")`, docs/mcp.md).
  assert.deepEqual(at('claude-code', 'local', win), ['projects', 'C:/work/proj', 'mcpServers', 'svc']);
  assert.equal(CLIENTS['claude-code'].configPath(linux, 'local'), '/home/ann/.claude.json');
  assert.deepEqual(at('vscode'), ['servers', 'svc']);
  assert.deepEqual(at('zed'), ['context_servers', 'svc']);
  assert.deepEqual(at('codex'), ['mcp_servers', 'svc']);
  for (const id of ['cursor', 'windsurf', 'gemini', 'cline'] as const) assert.deepEqual(at(id), ['mcpServers', 'svc']);
});

test('CODEX_HOME, XDG_CONFIG_HOME, APPDATA and CLAUDE_CONFIG_DIR move the files', () => {
  const env = { ...linux, env: { CODEX_HOME: '/opt/codex', XDG_CONFIG_HOME: '/xdg', CLAUDE_CONFIG_DIR: '/cc' } };
  assert.equal(CLIENTS.codex.configPath(env, 'user'), '/opt/codex/config.toml');
  assert.equal(CLIENTS.vscode.configPath(env, 'user'), '/xdg/Code/User/mcp.json');
  assert.equal(CLIENTS.zed.configPath(env, 'user'), '/xdg/zed/settings.json');
  assert.equal(CLIENTS['claude-desktop'].configPath(env, 'user'), '/xdg/Claude/claude_desktop_config.json');
  assert.equal(CLIENTS['claude-code'].configPath(env, 'user'), '/cc/.claude.json');
  // Zed on macOS uses ~/.config/zed whatever XDG_CONFIG_HOME says.
  assert.equal(
    CLIENTS.zed.configPath({ ...mac, env: { XDG_CONFIG_HOME: '/xdg' } }, 'user'),
    '/Users/ann/.config/zed/settings.json',
  );
  const winNoVars = { ...win, env: {} };
  assert.equal(CLIENTS.vscode.configPath(winNoVars, 'user'), 'C:\\Users\\ann\\AppData\\Roaming\\Code\\User\\mcp.json');
});

test('Claude Desktop from the Windows Store (MSIX) uses the package folder when it exists', () => {
  const pkg = 'C:\\Users\\ann\\AppData\\Local\\Packages\\Claude_pzs8sxrjxfjjc';
  const fs = { exists: (p: string) => p === pkg, list: () => ['Claude_pzs8sxrjxfjjc'] };
  assert.equal(
    CLIENTS['claude-desktop'].configPath({ ...win, fs }, 'user'),
    'C:\\Users\\ann\\AppData\\Local\\Packages\\Claude_pzs8sxrjxfjjc\\LocalCache\\Roaming\\Claude\\claude_desktop_config.json',
  );
  // Another publisher suffix is found by listing Packages.
  const other = {
    exists: () => false,
    list: (p: string) => (p.endsWith('Packages') ? ['Microsoft.X_1', 'Claude_abc123'] : []),
  };
  assert.equal(
    CLIENTS['claude-desktop'].configPath({ ...win, fs: other }, 'user'),
    'C:\\Users\\ann\\AppData\\Local\\Packages\\Claude_abc123\\LocalCache\\Roaming\\Claude\\claude_desktop_config.json',
  );
});

test('installed clients are detected by their folders', () => {
  const present = new Set(['/home/ann/.cursor', '/home/ann/.codex', '/home/ann/.config/zed']);
  const fs = { exists: (p: string) => present.has(p), list: () => [] };
  assert.deepEqual(
    detectInstalledClients({ ...linux, fs }).map((c) => c.id),
    ['cursor', 'codex', 'zed'],
  );
});
