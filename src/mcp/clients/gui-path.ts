// The PATH a desktop app gets when started from a dock, a launcher or a start menu; facts and sources: docs/mcp-gui.md.
import path from 'node:path';
import type { ClientSpec } from '../types.js';

/** The PATH a GUI app gets per platform (architecture.md "GUI PATH"). */
const SESSION_PATH: Partial<Record<NodeJS.Platform, readonly string[]>> = {
  darwin: ['/usr/bin', '/bin', '/usr/sbin', '/sbin'],
  linux: ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'],
};

/** The folders such a client finds commands in, or undefined when it has the user's shell PATH (or svcctl cannot tell). */
export function guiPathOf(client: ClientSpec | null, platform: NodeJS.Platform): readonly string[] | undefined {
  if (client?.startPath !== 'session') return undefined;
  return SESSION_PATH[platform];
}

/** `/usr/bin/` and `/usr/bin` are the same folder. */
export function onGuiPath(folder: string, guiPath: readonly string[]): boolean {
  const normal = (dir: string): string => path.posix.normalize(dir).replace(/\/+$/, '');
  return guiPath.some((dir) => normal(dir) === normal(folder));
}

/** What the written runner's env sets: npx's own folder first, so that its `#!/usr/bin/env node` finds that node. */
export function runnerPathValue(folder: string, guiPath: readonly string[]): string {
  return [folder, ...guiPath].join(path.posix.delimiter);
}

export function startedFrom(platform: NodeJS.Platform): string {
  return platform === 'darwin' ? 'from the Dock, Finder or Spotlight' : 'from the desktop launcher';
}
