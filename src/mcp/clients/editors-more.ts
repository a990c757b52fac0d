/**
 * More editor and app clients: Roo Code (a VS Code extension), Kiro, Goose.
 * Sources per row; the long form is docs/clients-editors.md.
 */
import { codexBearerVariable } from '../render/codex.js';
import { gooseKey, gooseLocal, gooseProxy, gooseRemote } from '../render/goose.js';
import type { ClientEnv, ClientSpec } from '../types.js';
import { appData, join, osFamily, projectFile, underKey, vscodeUserDir } from './paths.js';

/** Roo Code keeps its global settings in the VS Code extension's global storage (id rooveterinaryinc.roo-cline). */
export function rooStorageDir(env: ClientEnv): string {
  return join(env, vscodeUserDir(env), 'globalStorage', 'rooveterinaryinc.roo-cline');
}

/**
 * Roo Code — https://docs.roocode.com/features/mcp/using-mcp-in-roo
 * Global: <VS Code user dir>/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json;
 * project: .roo/mcp.json (wins over global on a name clash). Key `mcpServers`.
 * Remote: `type: "streamable-http"` + url + headers (a url without type is not
 * inferred: RooCodeInc/Roo-Code#9118). Variables: ${env:VAR} (and
 * ${workspaceFolder}) replaced over the whole entry by injectVariables
 * (RooCodeInc/Roo-Code src/utils/config.ts); a plain ${VAR} is left alone, so
 * mcp-remote's ${VAR} header arguments pass through (expandsInArgs false).
 * Windows: McpHub starts stdio servers as `cmd.exe /c <command>` itself
 * (src/services/mcp/McpHub.ts), so no cmd wrap.
 */
export const rooCode: ClientSpec = {
  id: 'roo-code',
  label: 'Roo Code',
  format: 'json',
  scopes: ['user', 'project'],
  configPath: (env, scope) =>
    scope === 'project' ? projectFile(env, '.roo', 'mcp.json') : join(env, rooStorageDir(env), 'settings', 'mcp_settings.json'),
  ...underKey('mcpServers'),
  variables: 'env-colon',
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: false,
  detectPath: rooStorageDir,
  afterChangeNote: () => "Roo Code watches its MCP settings files and reconnects by itself; check the server in Roo Code's MCP Servers view.",
  shape: { remote: { urlField: 'url', fields: { type: 'streamable-http' } } },
  guiApp: true,
  doctor: { disabledHint: ", or switch it on in Roo Code's MCP Servers view" },
  discontinued:
    'Roo Code was shut down on 2026-05-15 (its repository, RooCodeInc/Roo-Code, is archived): the entry works while your copy of the extension runs, but it gets no more updates. Its users moved to Cline (svcctl mcp install --client cline) and to the community fork Zoo Code.',
};

/**
 * Kiro — https://kiro.dev/docs/mcp/configuration , https://kiro.dev/docs/mcp/security
 * User: ~/.kiro/settings/mcp.json; workspace: .kiro/settings/mcp.json. Key
 * `mcpServers`; local {command, args, env}, remote {url, headers}. ${VAR} is
 * expanded only for variables the user approved (a security popup, or
 * kiroAgent.mcpApprovedEnvVars); others stay as the literal ${VAR}, so
 * mcp-remote's own ${VAR} header arguments reach it unexpanded.
 * How Kiro spawns on Windows is not documented: `cmd /c npx` works either way.
 */
export const kiro: ClientSpec = {
  id: 'kiro',
  label: 'Kiro',
  format: 'json',
  scopes: ['user', 'project'],
  configPath: (env, scope) =>
    scope === 'project' ? projectFile(env, '.kiro', 'settings', 'mcp.json') : join(env, env.homeDir, '.kiro', 'settings', 'mcp.json'),
  ...underKey('mcpServers'),
  variables: 'dollar-brace',
  expandsInArgs: true,
  keepsUnsetReferences: true,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: (env) => join(env, env.homeDir, '.kiro'),
  afterChangeNote: () => 'Kiro reconnects when its mcp.json is saved; check the server in the MCP Servers tab of the Kiro panel.',
  shape: { remote: { urlField: 'url' } },
  guiApp: true,
  extraNotes: (request) =>
    request.secrets === 'ref'
      ? ['Kiro expands ${VAR} only for approved variables: approve them in the popup Kiro shows, or add them to "Mcp Approved Env Vars" in its settings.']
      : [],
  doctor: { disabledHint: ', or switch it on in the MCP Servers tab of the Kiro panel' },
};

/** Goose: ~/.config/goose on macOS and Linux, %APPDATA%\Block\goose\config on Windows. */
export function gooseConfigDir(env: ClientEnv): string {
  return osFamily(env.platform) === 'win32'
    ? join(env, appData(env), 'Block', 'goose', 'config')
    : join(env, env.homeDir, '.config', 'goose');
}

/**
 * Goose — https://block.github.io/goose/docs/guides/config-files
 * ~/.config/goose/config.yaml (macOS, Linux), %APPDATA%\Block\goose\config\config.yaml
 * (Windows); YAML, `extensions:` map keyed by the lower-cased name. Entries
 * and variables: render/goose.ts. One scope (no project file).
 * Windows: Goose spawns through tokio's Command, which does not run npx.cmd
 * by PATHEXT (as for Codex), so `cmd /c npx`.
 */
export const goose: ClientSpec = {
  id: 'goose',
  label: 'Goose',
  format: 'yaml',
  scopes: ['user'],
  configPath: (env) => join(env, gooseConfigDir(env), 'config.yaml'),
  entryPath: (name) => ['extensions', gooseKey(name)],
  serversPath: () => ['extensions'],
  variables: 'none',
  expandsInArgs: false,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: gooseConfigDir,
  afterChangeNote: () => 'Start a new Goose session (CLI or Desktop); the extension is loaded when the session starts.',
  shape: { remote: { urlField: 'uri' } },
  renderer: { local: gooseLocal, remote: gooseRemote, proxy: gooseProxy, proxyTokenVariable: codexBearerVariable },
  forwardsByName: true,
  guiApp: true,
  extraNotes: (request) =>
    request.secrets === 'ref' ? ['Goose reads the variables named in env_keys from its environment, then from its keyring (goose configure); a missing one stops the extension from loading.'] : [],
  doctor: { disabledHint: ', or set enabled: true (goose configure → Toggle Extensions)' },
};
