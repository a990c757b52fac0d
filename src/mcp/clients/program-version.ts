// The PATH comes from the ClientEnv, never from process.env.
import { spawnSync } from 'node:child_process';
import { findProgramSync } from '../../fs/path-search.js';
import type { ClientEnv } from '../types.js';

const ANSWER_LIMIT_MS = 3000;
const cache = new Map<string, string | undefined>();

export function programOnPath(env: ClientEnv, program: string): string | undefined {
  return findProgramSync(program, { env: env.env, platform: env.platform, cwd: env.projectDir });
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
