// The PATH comes from the ClientEnv, never from process.env.
import { spawnSync } from 'node:child_process';
import { isServiceSecretVariable } from '../../config/settings.js';
import { findProgramSync } from '../../fs/path-search.js';
import { isSecretName } from '../../redaction/secret-names.js';
import type { ClientEnv } from '../types.js';

/** Gemini CLI 0.x takes ~5 s to print its version (a cold start loads its whole bundle): room for twice that. */
const ANSWER_LIMIT_MS = 10_000;
/** x.y.z with semver's pre-release and build parts, so the full stop that ends "… 1.0.102." is not taken along. */
const VERSION = /\d+\.\d+\.\d+(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?/;
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
    env: probeEnvironment(env.env),
    stdio: ['ignore', 'pipe', 'ignore'],
    shell: env.platform === 'win32',
  });
  const version = answer.status === 0 ? VERSION.exec(answer.stdout)?.[0] : undefined;
  cache.set(file, version);
  return version;
}

/** Any program named like a client may be on PATH and may log what it is given: it gets no secret to keep. */
export function probeEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(([name]) => !isServiceSecretVariable(name) && !isSecretName(name)),
  );
}
