// config.toml chooses where passwords and tokens are sent, credentials.json which token goes: as ssh does with
// ~/.ssh, svcctl uses them only when they and their folder are the user's alone. It stops (exit 7) rather than
// ignore them: an ignored config.toml would quietly change the deployment, or leave none (docs/security.md).
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Context } from '../core/context.js';
import { CliError, ExitCode } from '../core/errors.js';
import { folderTrustProblem, othersWriteProblem, ownerProblem } from '../fs/owner-mode.js';
import { configDir } from './config-dir.js';

/** `uid` undefined: Windows, where no owner or mode is checked (permissions are not mode bits), but the folder's place. */
export type OwnFilesContext = Pick<Context, 'env' | 'homeDir' | 'uid'> & Partial<Pick<Context, 'platform'>>;

/** Never passed over as "no such file": a caller that ignores a file it cannot read still stops for this. */
export class NotYoursAlone extends CliError {}

const STOPPED = 'svcctl uses its config and saved tokens only when they are yours alone, so it stopped';

/** Windows: svcctl reads no ACL, so it keeps tokens only inside the user's profile, the folder Windows sets up for that
 * user, and trusts its permissions; elsewhere (`XDG_CONFIG_HOME=C:\\xdg`) a new folder inherits the permissions of the
 * folders above it, which svcctl cannot see. */
export function outsideProfile(dir: string, profile: string): boolean {
  const relative = path.win32.relative(profile, dir);
  return relative === '..' || relative.startsWith('..\\') || path.win32.isAbsolute(relative);
}

function checkProfile(ctx: OwnFilesContext, dir: string): void {
  if (ctx.platform !== 'win32') return;
  const profile = ctx.env.USERPROFILE || ctx.homeDir;
  if (!outsideProfile(dir, profile)) return;
  throw new NotYoursAlone(
    ExitCode.UnsafeConfig,
    `svcctl's config folder ${dir} is outside your profile (${profile}): on Windows svcctl cannot check who else may read or change it there; ${STOPPED}`,
    {
      hint: `set XDG_CONFIG_HOME to a folder in your profile (${path.win32.join(profile, '.config')}), or unset it`,
    },
  );
}

/** `writing`: about to create the folder if missing, so its place is checked before it exists. */
export async function checkConfigFolder(ctx: OwnFilesContext, options: { writing?: boolean } = {}): Promise<void> {
  const dir = configDir(ctx);
  if (options.writing) checkProfile(ctx, dir);
  // stat, not lstat: dotfiles managers link whole folders, so a link there is followed and its target judged.
  // A folder that cannot be looked at is left to the read that follows, which names the cause.
  const info = await stat(dir).catch(() => undefined);
  if (info && !options.writing) checkProfile(ctx, dir);
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

/** A regular file in that folder (the caller refuses links and other kinds with its own words). `remake`: how the user
 * gets the file back after deleting it. */
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
