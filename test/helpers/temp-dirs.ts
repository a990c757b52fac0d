/** Temp folders that are removed when the test file ends (import this module at the top of the file). */
import { rm } from 'node:fs/promises';
import { after } from 'node:test';
import { makeTempDir } from './cli-env.js';

const dirs: string[] = [];
// Registered at import time, on the file's root: runs once, after every test of the file.
after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

export async function tempDir(prefix?: string): Promise<string> {
  const dir = await makeTempDir(prefix);
  dirs.push(dir);
  return dir;
}
