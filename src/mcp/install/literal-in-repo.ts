/**
 * Literal secrets in a project's config that git would commit: a project
 * folder is usually a git work tree that is shared, and `.mcp.json` or
 * `.vscode/mcp.json` are meant to be committed. Mode 0600 does not stop
 * `git add -A`. So an install that would put literal values into a project
 * file that git does not ignore (or already tracks) is refused unless --force.
 * Asked of git itself (`git check-ignore`, no shell); without git, or outside
 * a work tree, there is nothing to ask and nothing is refused.
 */
import { execFile } from 'node:child_process';
import { relative } from 'node:path';
import type { Context } from '../../core/context.js';
import { CliError, ExitCode } from '../../core/errors.js';
import type { FilePlan } from './install-plan.js';
import { realLocation } from './write-bounds.js';

export type GitVerdict = 'ignored' | 'not-ignored' | 'no-repository';

/**
 * Whether git would leave `file` out of a commit of the work tree at `root`. A tracked file counts as
 * not ignored even when .gitignore names it. The repository's core.fsmonitor (a command it could name)
 * is turned off: svcctl runs nothing a project names.
 */
export async function gitIgnores(ctx: Pick<Context, 'env'>, root: string, file: string): Promise<GitVerdict> {
  const realRoot = await realLocation(root);
  // Real paths: git refuses a path "beyond a symbolic link", and links inside the project are allowed.
  const path = relative(realRoot, await realLocation(file));
  return new Promise((resolve) => {
    execFile('git', ['-c', 'core.fsmonitor=false', 'check-ignore', '-q', '--', path], { cwd: realRoot, env: ctx.env, timeout: 10_000, windowsHide: true }, (error) => {
      if (error === null) resolve('ignored');
      // 1: not ignored; 128: not a work tree (or git could not tell); ENOENT: no git.
      else resolve((error as { code?: unknown }).code === 1 ? 'not-ignored' : 'no-repository');
    });
  });
}

/**
 * Refuses (exit 7, the file's safety being the question, as for a conflicting entry) the plans
 * that would write literal secrets into a project file git would commit; with --force, warns.
 */
export async function checkLiteralsInRepository(ctx: Context, plans: Array<{ plan: FilePlan; literal: boolean }>, force: boolean): Promise<void> {
  for (const { plan, literal } of plans) {
    const root = plan.target.bounds?.projectRoot;
    if (!literal || root === undefined || plan.status === 'unchanged') continue;
    if ((await gitIgnores(ctx, root, plan.target.file)) !== 'not-ignored') continue;
    const what = `${plan.target.file} is in a git work tree and git does not ignore it`;
    if (force) {
      ctx.out.warn(`${what}: it will hold your credentials as literal values; do not commit it (add it to .gitignore)`);
      continue;
    }
    throw new CliError(ExitCode.UnsafeConfig, `${what}: svcctl will not write your credentials into it as literal values (they would be committed with it); nothing was written`, {
      hint: 'use --secrets ref (the client reads them from the environment), or --scope user, or add the file to .gitignore; --force writes it anyway',
    });
  }
}
