// 0600 does not stop `git add -A`: literal secrets in a file git would commit are refused unless --force.
import { execFile } from 'node:child_process';
import { relative } from 'node:path';
import type { Context } from '../../core/context.js';
import { CliError, ExitCode } from '../../core/errors.js';
import type { FilePlan } from './install-plan.js';
import { realLocation } from './write-bounds.js';

export type GitVerdict = 'ignored' | 'not-ignored' | 'no-repository';

/** core.fsmonitor is off: it could name a command of the project's. */
export async function gitIgnores(ctx: Pick<Context, 'env'>, root: string, file: string): Promise<GitVerdict> {
  const realRoot = await realLocation(root);
  // git refuses a path "beyond a symbolic link", and links inside the project are allowed.
  const path = relative(realRoot, await realLocation(file));
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-c', 'core.fsmonitor=false', 'check-ignore', '-q', '--', path],
      { cwd: realRoot, env: ctx.env, timeout: 10_000, windowsHide: true },
      (error) => {
        if (error === null) resolve('ignored');
        else resolve((error as { code?: unknown }).code === 1 ? 'not-ignored' : 'no-repository');
      },
    );
  });
}

export async function checkLiteralsInRepository(
  ctx: Context,
  plans: Array<{ plan: FilePlan; literal: boolean; inUrl?: boolean }>,
  force: boolean,
): Promise<void> {
  for (const { plan, literal, inUrl } of plans) {
    const root = plan.target.bounds?.projectRoot;
    if (!literal || root === undefined || plan.status === 'unchanged') continue;
    if ((await gitIgnores(ctx, root, plan.target.file)) !== 'not-ignored') continue;
    const what = `${plan.target.file} is in a git work tree and git does not ignore it`;
    if (force) {
      ctx.out.warn(`${what}: it will hold your credentials as literal values; do not commit it (add it to .gitignore)`);
      continue;
    }
    if (inUrl)
      throw new CliError(
        ExitCode.UnsafeConfig,
        `${what}: svcctl will not write the MCP URL into it, since the URL holds a secret (a query value such as api_key= or token=) that would be committed with it; nothing was written`,
        {
          hint: 'use an MCP URL without the secret, or --scope user, or add the file to .gitignore; --force writes it anyway',
        },
      );
    throw new CliError(
      ExitCode.UnsafeConfig,
      `${what}: svcctl will not write your credentials into it as literal values (they would be committed with it); nothing was written`,
      {
        hint: 'use --secrets ref (the client reads them from the environment), or --scope user, or add the file to .gitignore; --force writes it anyway',
      },
    );
  }
}
