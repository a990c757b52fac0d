// npx's cache (<npm cache>/_npx/…) may be cleared any time: from there an entry runs `npx -y svcctl@<this version>`;
// from a clone or global install, the absolute node and script paths, so it runs this very svcctl whatever PATH holds.
// A project file is the exception: committed, it is read on every member's machine, where those paths (and this
// version) mean nothing, so it runs `svcctl` by name, the same text for everyone (docs/teams.md).
import { realpath } from 'node:fs/promises';
import { CLI_NAME, PACKAGE_RUNNER, PACKAGE_RUNNER_YES_FLAG } from '../../core/constants.js';
import type { Context } from '../../core/context.js';
import { VERSION } from '../../core/version.js';
import type { Scope, SvcctlCommand } from '../types.js';

export function inNpxCache(file: string): boolean {
  return file.split(/[\\/]/).includes('_npx');
}

const npxCommand = (): SvcctlCommand => ({
  argv: [PACKAGE_RUNNER, PACKAGE_RUNNER_YES_FLAG, `${CLI_NAME}@${VERSION}`],
  how: 'npx',
});

export async function svcctlCommand(
  ctx: Pick<Context, 'program' | 'env' | 'platform' | 'cwd'>,
  scope?: Scope,
): Promise<SvcctlCommand> {
  if (scope === 'project') return { argv: [CLI_NAME], how: 'name' };
  const script = ctx.program?.script;
  if (ctx.program !== undefined && script !== undefined) {
    const file = await realpath(script).catch(() => script);
    if (inNpxCache(file)) return npxCommand();
    return { argv: [ctx.program.execPath, file], how: 'path' };
  }
  const { findProgram } = await import('../../fs/path-search.js');
  const onPath = (await findProgram(CLI_NAME, ctx.env, ctx.platform, ctx.cwd)) !== undefined;
  return onPath ? { argv: [CLI_NAME], how: 'name' } : npxCommand();
}
