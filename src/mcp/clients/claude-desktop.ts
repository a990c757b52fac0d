// Facts and sources: docs/mcp.md.
import type { ClientEnv, ClientSpec } from '../types.js';
import { appSupportDir, join, localAppData, osFamily, probe, underKey } from './paths.js';

const DESKTOP_FILE = 'claude_desktop_config.json';

/** The Windows Store (MSIX) package, the default installer since early 2026. */
const MSIX_PACKAGE = 'Claude_pzs8sxrjxfjjc';

/** Any Claude_* package after the known id: the suffix is the publisher hash, which could change. */
export function claudeMsixPackageDir(env: ClientEnv): string | undefined {
  const packages = join(env, localAppData(env), 'Packages');
  const fs = probe(env);
  const known = join(env, packages, MSIX_PACKAGE);
  if (fs.exists(known)) return known;
  const other = fs
    .list(packages)
    .filter((name) => /^Claude_[a-z0-9]+$/i.test(name))
    .sort()[0];
  return other === undefined ? undefined : join(env, packages, other);
}

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
  noRemote: {
    why: 'it silently skips such entries',
    elsewhere: 'add the server in Claude Desktop under Settings → Connectors',
  },
  windowsCmdWrap: true,
  detectPath: (env) => claudeMsixPackageDir(env) ?? claudeDesktopDir(env),
  afterChangeNote: () =>
    'Quit Claude Desktop completely (also from the tray/menu bar) and start it again; it reads its config only at start.',
  shape: { remote: { urlField: 'url', fields: { type: 'http' } } },
  guiApp: true,
  startPath: 'session',
};
