/** What `event flush` leaves in the spool on purpose, said per target: the events spooled for another base URL (how
 * many, and whether that deployment answers now) and those of an earlier svcctl, each with the command that sends them;
 * and the consent `--from` needs before events meant for one deployment go to another. */
import type { Context } from '../core/context.js';
import { canPrompt } from '../core/context.js';
import { CliError, ExitCode } from '../core/errors.js';
import type { FlushOutcomeKind } from '../events/outcome.js';
import type { OtherTarget } from '../events/spool-targets.js';
import { probeDeployment, type Reachability } from '../http/reachable.js';

export interface LeftBehind {
  elsewhere: OtherTarget[];
  /** Files of an earlier svcctl (DIR/<id>.json), which recorded no base URL; not sent. */
  legacy: number;
}

export const leftCount = (left: LeftBehind): number =>
  left.elsewhere.reduce((sum, other) => sum + other.events, 0) + left.legacy;

/** Whether each other target answers, asked in parallel (2 s each) while the flush sends; by folder. */
export function probeTargets(ctx: Context, elsewhere: OtherTarget[]): Promise<Map<string, Reachability>> {
  return Promise.all(
    elsewhere.map(async (other) =>
      other.baseUrl === undefined
        ? undefined
        : ([other.folder, await probeDeployment(ctx.env, other.baseUrl)] as const),
    ),
  ).then((pairs) => new Map(pairs.filter((pair) => pair !== undefined)));
}

const answers = (reach: Reachability): string =>
  !reach.answers ? `does not answer (${reach.reason})` : reach.service ? 'answers' : reach.reason;

/** The command that sends the events of `other`: there when it answers, else to the base URL used now. */
export function sendCommand(
  other: OtherTarget,
  reach: Reachability | undefined,
  baseUrl: string,
  spool: string,
): string {
  const there = `'svcctl event flush --base-url ${other.baseUrl}${spool}' and that deployment's ingest token and HMAC secret`;
  const here = `'svcctl event flush --from ${other.baseUrl}${spool}' sends them to ${baseUrl} instead, signed for it`;
  return reach?.answers === false ? here : `send them there with ${there}; ${here}`;
}

/** One warning per target left: how many events, whether it answers, and the command that sends them. */
export function reportLeft(
  ctx: Context,
  left: LeftBehind,
  reach: Map<string, Reachability>,
  baseUrl: string,
  spoolFlag: string | undefined,
): void {
  const spool = spoolFlag === undefined ? '' : ` --spool ${spoolFlag}`;
  for (const other of left.elsewhere) {
    if (other.baseUrl === undefined) {
      ctx.out.warn(
        `left ${other.events} event(s) in ${other.folder}, whose base URL is not recorded: not sent anywhere`,
      );
      continue;
    }
    const probe = reach.get(other.folder);
    ctx.out.warn(
      `left ${other.events} event(s) spooled for ${other.baseUrl}, not ${baseUrl}; ${other.baseUrl} ` +
        `${probe ? answers(probe) : 'was not asked'}: ${sendCommand(other, probe, baseUrl, spool)}`,
    );
  }
  if (left.legacy > 0) {
    ctx.out.warn(
      `left ${left.legacy} event(s) spooled by an earlier svcctl, which did not record their base URL: ` +
        `if they are for ${baseUrl}, run this flush again with --legacy-to-current`,
    );
  }
}

export interface Stay {
  kept: number;
  dir: string;
  baseUrl: string;
  lastFailure?: string;
  left: LeftBehind;
  reach: Map<string, Reachability>;
  spoolFlag: string | undefined;
}

function leftHint(stay: Stay): string {
  const [only] = stay.left.elsewhere;
  if (stay.left.legacy > 0 || stay.left.elsewhere.length !== 1 || only!.baseUrl === undefined)
    return 'the warnings above say how to send them';
  const spool = stay.spoolFlag === undefined ? '' : ` --spool ${stay.spoolFlag}`;
  return sendCommand(only!, stay.reach.get(only!.folder), stay.baseUrl, spool);
}

/** Exit 6 for any event left behind: a cron flush does not report success while events wait. */
export function whyLeft(kind: FlushOutcomeKind, stay: Stay): CliError | undefined {
  if (kind === 'kept') {
    const why = stay.lastFailure === undefined ? '' : `: ${stay.lastFailure}`;
    return new CliError(
      ExitCode.Unavailable,
      `${stay.kept} event(s) could not be delivered and stay in ${stay.dir}${why}`,
      { hint: 'run svcctl event flush again later (from cron, say); --verbose shows each event' },
    );
  }
  if (kind === 'left')
    return new CliError(
      ExitCode.Unavailable,
      `${leftCount(stay.left)} event(s) stay in ${stay.dir}, not sent to ${stay.baseUrl}`,
      { hint: leftHint(stay) },
    );
  return undefined;
}

/** `--from URL`: the events spooled for URL are signed with the token and secret of the base URL used now and sent
 * there. The flag is the consent off a terminal and with -q or --no-input; at a terminal the question names both. */
export async function consentFrom(ctx: Context, from: OtherTarget, baseUrl: string): Promise<boolean> {
  if (!canPrompt(ctx) || ctx.globals.quiet) return true;
  const { promptConfirm } = await import('../core/prompts.js');
  return promptConfirm(
    ctx,
    `Send the ${from.events} event(s) spooled for ${from.baseUrl} to ${baseUrl} instead, signed with its ingest token and HMAC secret?`,
    false,
  );
}
