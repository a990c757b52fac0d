/**
 * The tarball `npm pack` makes of this clone, for tests that install svcctl as a user does. Packed with
 * --ignore-scripts: the prepack build would rewrite dist/ while other test files run it (the runner has built it
 * already), so the tarball's package.json keeps its `prepare` line, which npm does not run for a tarball.
 */
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from './cli-env.js';

/** Packs into `dir`; the tarball's path. */
export async function packTarball(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const args = ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir];
  const name = await new Promise<string>((resolve, reject) => {
    const child = spawn('npm', args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out.trim().split('\n').at(-1) ?? '') : reject(new Error(err))));
  });
  return join(dir, name);
}
