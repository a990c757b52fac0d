// The PATH comes from the ClientEnv, never from process.env.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import type { ClientEnv } from '../types.js';

const ANSWER_LIMIT_MS = 3000;
const cache = new Map<string, string | undefined>();

export function programOnPath(env: ClientEnv, program: string): string | undefined {
  const api = env.platform === 'win32' ? path.win32 : path.posix;
  const extensions =
    env.platform === 'win32' ? ['', ...(env.env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  const dirs = ((env.platform === 'win32' ? (env.env.PATH ?? env.env.Path) : env.env.PATH) ?? '')
    .split(api.delimiter)
    .filter(Boolean);
  for (const dir of dirs) {
    for (const ext of extensions) {
      const file = api.join(dir, `${program}${ext}`);
      try {
        if (!statSync(file).isFile()) continue;
        if (env.platform !== 'win32') accessSync(file, constants.X_OK);
        return file;
      } catch {}
    }
  }
  return undefined;
}

export function programVersion(env: ClientEnv, program: string): string | undefined {
  const file = programOnPath(env, program);
  if (file === undefined) return undefined;
  if (cache.has(file)) return cache.get(file);
  const answer = spawnSync(file, ['--version'], {
    encoding: 'utf8',
    timeout: ANSWER_LIMIT_MS,
    env: env.env,
    stdio: ['ignore', 'pipe', 'ignore'],
    shell: env.platform === 'win32',
  });
  const version = answer.status === 0 ? /\d+\.\d+\.\d+[^\s]*/.exec(answer.stdout)?.[0] : undefined;
  cache.set(file, version);
  return version;
}
