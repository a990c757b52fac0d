/**
 * Claude Desktop and Claude Code (reference §A.1, §A.2).
 */
import type { ClientEnv, ClientSpec, Scope } from '../types.js';
import { claudeCodeAddCommand } from './add-commands.js';
import { appSupportDir, envOr, join, localAppData, osFamily, probe, projectFile, resolveFor, underKey } from './paths.js';

const DESKTOP_FILE = 'claude_desktop_config.json';
/** The Windows Store (MSIX) package of Claude Desktop, the default installer since early 2026. */
const MSIX_PACKAGE = 'Claude_pzs8sxrjxfjjc';

/**
 * The MSIX package folder when Claude Desktop was installed from the Windows
 * Store: the known package id first, else any Claude_* package (the id suffix
 * is the publisher hash, which could change).
 */
export function claudeMsixPackageDir(env: ClientEnv): string | undefined {
  const packages = join(env, localAppData(env), 'Packages');
  const fs = probe(env);
  const known = join(env, packages, MSIX_PACKAGE);
  if (fs.exists(known)) return known;
  const other = fs.list(packages).filter((name) => /^Claude_[a-z0-9]+$/i.test(name)).sort()[0];
  return other === undefined ? undefined : join(env, packages, other);
}

/** The folder that holds claude_desktop_config.json. */
export function claudeDesktopDir(env: ClientEnv): string {
  if (osFamily(env.platform) === 'win32') {
    const msix = claudeMsixPackageDir(env);
    // MSIX apps see %APPDATA% redirected into the package's LocalCache.
    if (msix !== undefined) return join(env, msix, 'LocalCache', 'Roaming', 'Claude');
  }
  // Linux has no official build; community builds use ~/.config/Claude.
  return appSupportDir(env, 'Claude');
}

export const claudeDesktop: ClientSpec = {
  id: 'claude-desktop',
  label: 'Claude Desktop',
  format: 'json',
  scopes: ['user'],
  configPath: (env) => join(env, claudeDesktopDir(env), DESKTOP_FILE),
  ...underKey('mcpServers'),
  variables: 'none',
  expandsInArgs: false,
  remoteInFile: false,
  noRemote: { why: 'it silently skips such entries', elsewhere: 'add the server in Claude Desktop under Settings → Connectors' },
  windowsCmdWrap: true,
  detectPath: (env) => claudeMsixPackageDir(env) ?? claudeDesktopDir(env),
  afterChangeNote: () =>
    'Quit Claude Desktop completely (also from the tray/menu bar) and start it again; it reads its config only at start.',
  shape: { remote: { urlField: 'url', fields: { type: 'http' } } },
  guiApp: true,
};

/** ~/.claude.json, or $CLAUDE_CONFIG_DIR/.claude.json when that is set. */
export function claudeCodeStateFile(env: ClientEnv): string {
  return join(env, envOr(env, 'CLAUDE_CONFIG_DIR', env.homeDir), '.claude.json');
}

function claudeCodePath(env: ClientEnv, scope: Scope): string {
  if (scope === 'project') return projectFile(env, '.mcp.json');
  return claudeCodeStateFile(env);
}

function claudeCodeServersPath(scope: Scope, env: ClientEnv): string[] {
  // Local scope: private to one project, kept in ~/.claude.json under the project's absolute path.
  if (scope === 'local') return ['projects', resolveFor(env, env.projectDir), 'mcpServers'];
  return ['mcpServers'];
}

export const claudeCode: ClientSpec = {
  id: 'claude-code',
  label: 'Claude Code',
  format: 'json',
  scopes: ['user', 'project', 'local'],
  configPath: claudeCodePath,
  entryPath: (name, scope, env) => [...claudeCodeServersPath(scope, env), name],
  serversPath: claudeCodeServersPath,
  variables: 'dollar-brace',
  expandsInArgs: true,
  remoteInFile: true,
  windowsCmdWrap: true,
  detectPath: (env) => join(env, env.homeDir, '.claude'),
  afterChangeNote: (scope) =>
    scope === 'project'
      ? 'Start a new Claude Code session in the project and approve the server when asked (project servers from .mcp.json need approval; see /mcp).'
      : 'Start a new Claude Code session (or run /mcp) to load the server.',
  shape: { stdioFields: { type: 'stdio' }, remote: { urlField: 'url', fields: { type: 'http' } } },
  // "Use dynamic headers for custom authentication" (https://code.claude.com/docs/en/mcp, quoted in
  // https://github.com/anthropics/claude-code/issues/52200): "headersHelper … generate[s] request headers at
  // connection time. Claude Code runs the command and merges its output into the connection headers. The helper
  // runs fresh on each connection (at session start and on reconnect)". Claude Code 2.1.197's own code (checked):
  // a string, run with shell: true, 10 s timeout, CLAUDE_CODE_MCP_SERVER_NAME/_URL in its env; stdout trimmed
  // must be a JSON object of string values; a tool call answered 401 re-runs it and retries once; a project-scope
  // helper runs only after the workspace trust dialog is accepted.
  headersCommand: {
    field: 'headersHelper',
    shell: true,
    output: 'json-headers',
    timeoutMs: 10_000,
    env: { CLAUDE_CODE_MCP_SERVER_NAME: 'server-name', CLAUDE_CODE_MCP_SERVER_URL: 'server-url' },
  },
  extraNotes: (request) =>
    request.secrets === 'ref' && request.scope !== 'project'
      ? ['Claude Code documents ${VAR} expansion for .mcp.json; if a user/local-scope server gets no credentials, use --scope project or --secrets literal.']
      : [],
  addCommand: claudeCodeAddCommand,
};
