// One login at a time per credentials file. A lock name of its own: the login saves the token under the file's lock,
// which is not re-entrant.
import { dirname } from 'node:path';
import type { Context } from '../core/context.js';
import { CliError, ExitCode } from '../core/errors.js';
import { LockBusyError, withFileLock } from '../fs/file-lock.js';
import { fileWriteReason } from '../fs/reasons.js';
import { ensureFolder } from '../fs/private-dir.js';

export async function withRefreshLock<T>(
  ctx: Context,
  credentialsFile: string,
  waitMs: number,
  work: () => Promise<T>,
): Promise<T> {
  const name = `${credentialsFile}.refresh`;
  await ensureFolder(dirname(credentialsFile), { private: true }).catch((error: unknown) => {
    throw new CliError(ExitCode.UnsafeConfig, `cannot write to ${dirname(credentialsFile)}: ${fileWriteReason(error)}`);
  });
  const onWait = (): void => ctx.out.info('waiting for another svcctl that is logging in…');
  try {
    return await withFileLock(name, { waitMs, onWait }, work);
  } catch (error) {
    if (!(error instanceof LockBusyError)) throw error;
    throw new CliError(
      ExitCode.UnsafeConfig,
      `another svcctl has been logging in for over ${Math.round(waitMs / 1000)} s (${error.message})`,
      {
        hint: `if no svcctl is running, delete ${error.lockPath}`,
      },
    );
  }
}
