/**
 * How an entry starts svcctl again (`--token helper`: a headers command or a
 * `svcctl mcp proxy` entry), decided from how this svcctl was started:
 * - from a stable place (a clone, a global install): its absolute path, as
 *   the Node.js executable and the script (symbolic links resolved), so the
 *   entry runs this very svcctl, whatever the client's PATH holds;
 * - from npx's cache (`<npm cache>/_npx/<hash>/node_modules/svcctl`, which npm
 *   may clear at any time): `npx -y svcctl@<this version>`, the same version;
 * - when the running program is unknown (svcctl inside another program): by
 *   name when `svcctl` is on PATH, else through npx with this version.
 * `svcctl mcp doctor` says when a path written here is gone.
 */
import { realpath } from 'node:fs/promises';
import { CLI_NAME, PACKAGE_RUNNER, PACKAGE_RUNNER_YES_FLAG } from '../../core/constants.js';
import type { Context } from '../../core/context.js';
import { VERSION } from '../../core/version.js';
import type { SvcctlCommand } from '../types.js';

/** True for a file inside npm's npx cache: a `_npx` folder on its path. */
export function inNpxCache(file: string): boolean {
  return file.split(/[\\/]/).includes('_npx');
}

const npxCommand = (): SvcctlCommand => ({ argv: [PACKAGE_RUNNER, PACKAGE_RUNNER_YES_FLAG, `${CLI_NAME}@${VERSION}`], how: 'npx' });

export async function svcctlCommand(ctx: Pick<Context, 'program' | 'env' | 'platform' | 'cwd'>): Promise<SvcctlCommand> {
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
