/** Which MCP clients are on this machine, and the evidence: the client's config folder, its program on PATH, an app
 * bundle (macOS) or a desktop file (Linux). Programs, bundles and desktop files with their sources: docs/teams.md
 * ("Detected clients"). Everything comes from the ClientEnv (HOME, PATH, XDG_DATA_*), never from process.env. */
import { allClients } from './table.js';
import { join, osFamily, probe } from './paths.js';
import { programOnPath, programVersion } from './program-version.js';
import type { ClientEnv, ClientId, ClientSpec } from '../types.js';

interface Signs {
  /** Command-line programs; `versioned` ones print their version with --version and exit. */
  programs?: string[];
  versioned?: boolean;
  /** macOS: the bundle's name in /Applications or ~/Applications. */
  app?: string;
  /** Linux: the desktop file's name in an applications folder of XDG_DATA_HOME or XDG_DATA_DIRS. */
  desktop?: string[];
}

const SIGNS: Partial<Record<ClientId, Signs>> = {
  'claude-desktop': { app: 'Claude.app' },
  'claude-code': { programs: ['claude'], versioned: true },
  cursor: { programs: ['cursor'], app: 'Cursor.app', desktop: ['cursor.desktop'] },
  vscode: { programs: ['code'], versioned: true, app: 'Visual Studio Code.app', desktop: ['code.desktop'] },
  windsurf: { programs: ['windsurf'], app: 'Windsurf.app', desktop: ['windsurf.desktop'] },
  codex: { programs: ['codex'], versioned: true },
  gemini: { programs: ['gemini'], versioned: true },
  zed: { programs: ['zed', 'zeditor'], app: 'Zed.app', desktop: ['dev.zed.Zed.desktop', 'zed.desktop'] },
  opencode: { programs: ['opencode'], versioned: true },
  copilot: { programs: ['copilot'], versioned: true },
  qwen: { programs: ['qwen'], versioned: true },
  auggie: { programs: ['auggie'], versioned: true },
  droid: { programs: ['droid'], versioned: true },
  amp: { programs: ['amp'], versioned: true },
  crush: { programs: ['crush'], versioned: true },
  kiro: { app: 'Kiro.app' },
  goose: { programs: ['goose'], versioned: true, app: 'Goose.app' },
  'lm-studio': { programs: ['lms'], app: 'LM Studio.app' },
  antigravity: { app: 'Antigravity.app' },
};

export type EvidenceKind = 'config folder' | 'program' | 'app bundle' | 'desktop file';

export interface Evidence {
  kind: EvidenceKind;
  path: string;
}

export interface DetectedClient {
  client: ClientSpec;
  evidence: Evidence[];
  /** Asked only with `withVersions`: a program run for it. */
  version?: string;
}

function applicationFolders(env: ClientEnv): string[] {
  switch (osFamily(env.platform)) {
    case 'darwin':
      return ['/Applications', join(env, env.homeDir, 'Applications')];
    case 'linux': {
      const dataHome = env.env.XDG_DATA_HOME || join(env, env.homeDir, '.local', 'share');
      const dataDirs = (env.env.XDG_DATA_DIRS || '/usr/local/share:/usr/share').split(':').filter(Boolean);
      return [dataHome, ...dataDirs].map((dir) => join(env, dir, 'applications'));
    }
    default:
      return [];
  }
}

function evidenceOf(env: ClientEnv, client: ClientSpec): Evidence[] {
  const fs = probe(env);
  const found: Evidence[] = [];
  const folder = client.detectPath(env);
  if (fs.exists(folder)) found.push({ kind: 'config folder', path: folder });
  const signs = SIGNS[client.id] ?? {};
  for (const program of signs.programs ?? []) {
    const file = programOnPath(env, program);
    if (file !== undefined) found.push({ kind: 'program', path: file });
  }
  const family = osFamily(env.platform);
  const names = family === 'darwin' ? (signs.app ? [signs.app] : []) : family === 'linux' ? (signs.desktop ?? []) : [];
  for (const dir of applicationFolders(env))
    for (const name of names) {
      const file = join(env, dir, name);
      if (fs.exists(file)) found.push({ kind: family === 'darwin' ? 'app bundle' : 'desktop file', path: file });
    }
  return found;
}

function versionOf(env: ClientEnv, client: ClientSpec): string | undefined {
  const signs = SIGNS[client.id];
  if (!signs?.versioned) return undefined;
  for (const program of signs.programs ?? []) {
    const version = programVersion(env, program);
    if (version !== undefined) return version;
  }
  return undefined;
}

/** In the client table's order; a client with no evidence at all is not listed. */
export function detectClients(env: ClientEnv, options: { withVersions?: boolean } = {}): DetectedClient[] {
  return allClients().flatMap((client) => {
    const evidence = evidenceOf(env, client);
    if (evidence.length === 0) return [];
    const version = options.withVersions ? versionOf(env, client) : undefined;
    return [{ client, evidence, ...(version !== undefined ? { version } : {}) }];
  });
}

export const detectedClientIds = (env: ClientEnv): ClientId[] =>
  detectClients(env).map(({ client }) => client.id as ClientId);
