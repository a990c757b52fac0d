/**
 * A project folder for the tests of project-scope files: a temp HOME with the project at HOME/proj, and the
 * argv that installs Claude Code's project entry (its `.mcp.json`), the client every project-scope test uses.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from './temp-dirs.js';

export interface ProjectFolder {
  home: string;
  proj: string;
  /** HOME/proj/.mcp.json (written only when text was given). */
  file: string;
}

export async function projectFolder(options: { prefix?: string; mcpJson?: string } = {}): Promise<ProjectFolder> {
  const home = await tempDir(options.prefix ?? 'svcctl-project-home-');
  const proj = join(home, 'proj');
  await mkdir(proj);
  const file = join(proj, '.mcp.json');
  if (options.mcpJson !== undefined) await writeFile(file, options.mcpJson);
  return { home, proj, file };
}

/** `svcctl mcp install --client claude-code --scope project EXTRA…`. */
export const projectInstall = (...extra: string[]): string[] => [
  'mcp',
  'install',
  '--client',
  'claude-code',
  '--scope',
  'project',
  ...extra,
];
