/**
 * Where doctor starts an entry it runs without asking (svcctl's own, or one of the user's own config): a folder
 * of svcctl's state, never the project. npm reads a project's `.npmrc` from the nearest folder above its working
 * folder that holds a package.json or node_modules, and npx runs a matching package of that project's
 * node_modules (docs/security.md, "Whose an entry is"): started in the project, svcctl's own entry would take the
 * project's registry and code. The folder holds a package.json of its own so that npm's search stops there and
 * nothing above it (a HOME with a node_modules) counts either. Not os.tmpdir(): anyone can put a node_modules or
 * package.json in /tmp, which npm would then read as the project.
 */
import { lstat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stateDir } from '../../config/config-dir.js';
import type { Context } from '../../core/context.js';
import { ensureFolder } from '../../fs/private-dir.js';
import { fileWriteReason } from '../../fs/reasons.js';
import { fail, type CheckResult } from './types.js';

export const runnerFolderPath = (ctx: Pick<Context, 'env' | 'homeDir'>): string => join(stateDir(ctx), 'runner');

export const RUNNER_MANIFEST = `${JSON.stringify({ name: 'svcctl-doctor-runner', private: true, description: 'svcctl mcp doctor starts npx here, outside any project' }, null, 2)}\n`;

/** The folder, or the failing check that says why it cannot be used: nothing then runs. */
export async function runnerFolder(ctx: Pick<Context, 'env' | 'homeDir' | 'uid'>): Promise<string | CheckResult> {
  const folder = runnerFolderPath(ctx);
  try {
    await ensureFolder(folder, { private: true });
    const info = await lstat(folder);
    const mine = ctx.uid === undefined || (info.uid === ctx.uid && (info.mode & 0o022) === 0);
    if (!info.isDirectory() || !mine)
      return fail(
        'runner',
        `${folder} is not a folder of yours that only you can write, so doctor does not start the entry there`,
        `remove it (svcctl creates it again), or: chmod 700 ${folder}`,
      );
    await writeFile(join(folder, 'package.json'), RUNNER_MANIFEST, { flag: 'wx', mode: 0o600 }).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      },
    );
    return folder;
  } catch (error) {
    return fail(
      'runner',
      `cannot create ${folder}, where doctor starts the entry outside the project: ${fileWriteReason(error)}`,
      'make that folder writable, or set XDG_STATE_HOME to a folder of yours',
    );
  }
}
