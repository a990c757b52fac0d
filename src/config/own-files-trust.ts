// config.toml chooses where passwords and tokens are sent, credentials.json which token goes: as ssh does with
// ~/.ssh, svcctl uses them only when they and their folder are the user's alone. It stops (exit 7) rather than
// ignore them: an ignored config.toml would quietly change the deployment, or leave none (docs/security.md).
import { stat } from 'node:fs/promises';
import type { Context } from '../core/context.js';
import { CliError, ExitCode } from '../core/errors.js';
import { folderTrustProblem, othersWriteProblem, ownerProblem } from '../fs/owner-mode.js';
import { configDir } from './config-dir.js';

/** `uid` undefined: Windows, where nothing is checked here (permissions are not mode bits). */
export type OwnFilesContext = Pick<Context, 'env' | 'homeDir' | 'uid'>;

/** Never passed over as "no such file": a caller that ignores a file it cannot read still stops for this. */
export class NotYoursAlone extends CliError {}

const STOPPED = 'svcctl uses its config and saved tokens only when they are yours alone, so it stopped';

export async function checkConfigFolder(ctx: OwnFilesContext): Promise<void> {
  const dir = configDir(ctx);
  // stat, not lstat: dotfiles managers link whole folders, so a link there is followed and its target judged.
  // A folder that cannot be looked at is left to the read that follows, which names the cause.
  const info = await stat(dir).catch(() => undefined);
  const found = info && folderTrustProblem(info, ctx.uid);
  if (!info || !found) return;
  const hint =
    found.kind === 'owner'
      ? `if it is yours, chown -R ${ctx.uid} '${dir}'; else run svcctl as its owner (uid ${info.uid}), or move it away`
      : found.kind === 'mode'
        ? `chmod 700 '${dir}', and check that nothing in it was put there by someone else`
        : 'move it away: svcctl creates its folder, mode 0700, when it next saves a login or a deployment';
  throw new NotYoursAlone(ExitCode.UnsafeConfig, `svcctl's config folder ${dir} ${found.problem}; ${STOPPED}`, {
    hint,
  });
}

/**
 * A regular file in that folder (the caller refuses links and other kinds with its own words).
 * `remake`: how the user gets the file back after deleting it.
 */
export function checkConfigFile(
  ctx: OwnFilesContext,
  shown: string,
  path: string,
  facts: { uid: number; mode: number },
  remake: string,
): void {
  const owner = ownerProblem(facts.uid, ctx.uid);
  const problem = owner ?? othersWriteProblem(facts.mode, ctx.uid);
  if (problem === undefined) return;
  const hint =
    owner !== undefined
      ? `if it is yours, chown ${ctx.uid} '${path}'; else delete it (rm '${path}') and ${remake}`
      : `chmod 600 '${path}', and check that what is in it is what you wrote`;
  throw new NotYoursAlone(ExitCode.UnsafeConfig, `${shown} ${problem}; ${STOPPED}`, { hint });
}
