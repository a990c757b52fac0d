/**
 * Editor clients: Cursor, VS Code, Windsurf, Cline (a VS Code extension) and
 * Zed (reference §A.1, §A.2).
 */
import type { ClientEnv, ClientSpec, DoctorFailure, Scope } from '../types.js';
import { cursorAddCommand, vscodeAddCommand } from './add-commands.js';
import { appData, join, osFamily, projectFile, underKey, vscodeUserDir, xdgConfigHome } from './paths.js';

export const cursor: ClientSpec = {
  id: 'cursor',
  label: 'Cursor',
  format: 'json',
  scopes: ['user', 'project'],
  configPath: (env, scope) =>
    scope === 'project' ? projectFile(env, '.cursor', 'mcp.json') : join(env, env.homeDir, '.cursor', 'mcp.json'),
  ...underKey('mcpServers'),
  variables: 'env-colon',
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: (env) => join(env, env.homeDir, '.cursor'),
  afterChangeNote: () => 'In Cursor open Settings → MCP (Tools & Integrations), check that the server is enabled, or reload the window.',
  shape: { remote: { urlField: 'url' } },
  guiApp: true,
  addCommand: cursorAddCommand,
};

export const vscode: ClientSpec = {
  id: 'vscode',
  label: 'VS Code',
  format: 'jsonc',
  scopes: ['user', 'project'],
  configPath: (env, scope: Scope) =>
    scope === 'project' ? projectFile(env, '.vscode', 'mcp.json') : join(env, vscodeUserDir(env), 'mcp.json'),
  // VS Code reads `servers`; an entry under `mcpServers` is silently ignored.
  ...underKey('servers'),
  variables: 'env-colon',
  expandsInArgs: false,
  remoteInFile: true,
  // VS Code starts stdio servers through a shell on Windows, so npx resolves.
  windowsCmdWrap: false,
  detectPath: (env) => vscodeUserDir(env),
  afterChangeNote: () =>
    'In VS Code run "MCP: List Servers" and start the server (or use the Start action above it in mcp.json); values from inputs are asked for at the first start.',
  shape: { stdioFields: { type: 'stdio' }, remote: { urlField: 'url', fields: { type: 'http' } } },
  promptInputs: true,
  guiApp: true,
  extraNotes: (request) =>
    request.secrets === 'ref' && request.mode === 'remote'
      ? ['Some VS Code versions do not substitute ${env:VAR} in headers (microsoft/vscode#336232); if the server rejects the login, use --secrets prompt.']
      : [],
  doctor: { ignoredKey: { ignoredKey: 'mcpServers', readKey: 'servers' } },
  addCommand: vscodeAddCommand,
};

export const windsurf: ClientSpec = {
  id: 'windsurf',
  label: 'Windsurf',
  format: 'json',
  scopes: ['user'],
  configPath: (env) => join(env, env.homeDir, '.codeium', 'windsurf', 'mcp_config.json'),
  ...underKey('mcpServers'),
  variables: 'env-colon',
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: (env) => join(env, env.homeDir, '.codeium', 'windsurf'),
  afterChangeNote: () => 'In Windsurf open the MCP panel of Cascade and press refresh.',
  shape: { remote: { urlField: 'serverUrl' } },
  guiApp: true,
};

/** Cline: an untyped `url` is SSE, `type: "http"` fails its schema; only streamableHttp (or legacy transportType "http") speaks Streamable HTTP. */
function clineTransport(name: string, entry: Record<string, unknown>, reinstall: string): DoctorFailure | undefined {
  const typed = typeof entry.type === 'string' ? entry.type : undefined;
  if (typed === 'streamableHttp' || (typed === undefined && entry.transportType === 'http')) return undefined;
  const found =
    typed === undefined
      ? 'a `url` without `type` is SSE for Cline, and this server speaks Streamable HTTP'
      : typed === 'http'
        ? '`type: "http"` fails Cline\'s schema'
        : `\`type: "${typed}"\` is not Streamable HTTP`;
  return { message: `'${name}': ${found}; Cline needs "type": "streamableHttp"`, fix: `set "type": "streamableHttp" in the entry, or reinstall: ${reinstall}` };
}

/** Cline keeps its settings in the VS Code extension's global storage. */
export function clineStorageDir(env: ClientEnv): string {
  return join(env, vscodeUserDir(env), 'globalStorage', 'saoudrizwan.claude-dev');
}

export const cline: ClientSpec = {
  id: 'cline',
  label: 'Cline',
  format: 'json',
  scopes: ['user'],
  configPath: (env) => join(env, clineStorageDir(env), 'settings', 'cline_mcp_settings.json'),
  ...underKey('mcpServers'),
  // ${env:VAR} since Dec 2025 (cline/cline#8079); older versions pass it literally.
  variables: 'env-colon',
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: clineStorageDir,
  afterChangeNote: () => 'Cline watches its settings file and reconnects by itself; check the MCP Servers view of Cline.',
  // Cline reads a `url` without type as SSE; "http" fails its schema.
  shape: { remote: { urlField: 'url', fields: { type: 'streamableHttp' } } },
  guiApp: true,
  extraNotes: (request) => (request.secrets === 'ref' ? ['Cline expands ${env:VAR} since December 2025; with an older Cline use --secrets literal.'] : []),
  doctor: {
    disabledHint: ", or switch it on in Cline's MCP Servers view",
    entryRule: (name, entry, mode, reinstall) => (mode === 'remote' ? clineTransport(name, entry, reinstall(' --mode remote')) : undefined),
  },
};

/** Zed: ~/.config/zed on macOS and Linux ($XDG_CONFIG_HOME on Linux only), %APPDATA%\Zed on Windows. */
export function zedConfigDir(env: ClientEnv): string {
  switch (osFamily(env.platform)) {
    case 'win32':
      return join(env, appData(env), 'Zed');
    case 'darwin':
      return join(env, env.homeDir, '.config', 'zed');
    default:
      return join(env, xdgConfigHome(env), 'zed');
  }
}

export const zed: ClientSpec = {
  id: 'zed',
  label: 'Zed',
  format: 'jsonc',
  scopes: ['user', 'project'],
  configPath: (env, scope) => (scope === 'project' ? projectFile(env, '.zed', 'settings.json') : join(env, zedConfigDir(env), 'settings.json')),
  ...underKey('context_servers'),
  variables: 'none',
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: false,
  detectPath: zedConfigDir,
  afterChangeNote: () => 'Zed reloads settings.json by itself; check the server in the Agent panel settings (Context Servers).',
  shape: { stdioFields: { source: 'custom' }, remote: { urlField: 'url' } },
  guiApp: true,
};
