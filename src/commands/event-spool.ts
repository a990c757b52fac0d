/** `--spool [DIR]` of `event send` and `event run`: where the spool is, and keeping an event there. */
import type { Context } from '../core/context.js';
import { ExitCode } from '../core/errors.js';
import type { Delivery } from '../events/deliver.js';
import { type EventOutcome, outcomeOf } from '../events/outcome.js';
import { countSpooled, openSpool, spoolDirectory, spoolEvent } from '../events/spool.js';
import { spoolFor, targetSpool } from '../events/spool-targets.js';
import type { SpoolFolder } from '../events/spool-trust.js';
import { readSetting } from '../config/settings.js';

/** The spool folder, and the base URL its events are kept for. */
export interface SpoolPlace {
  dir: string;
  baseUrl: string;
}

/** The spool folder when --spool was given, else undefined. */
export function spoolTarget(ctx: Context, flag: string | true | undefined): string | undefined {
  if (flag === undefined) return undefined;
  return spoolDirectory(flag, ctx.env, ctx.homeDir, readSetting(ctx.env, 'SPOOL_DIR')?.value, ctx.cwd);
}

/** After a delivery: how many events are waiting in the spool for the same base URL. */
async function reportWaiting(ctx: Context, place: SpoolPlace): Promise<void> {
  const dir = targetSpool(openSpool(place.dir, ctx.uid), place.baseUrl).dir;
  const waiting = await countSpooled(dir).catch(() => 0);
  if (waiting > 0) ctx.out.warn(`${waiting} event(s) are waiting in the spool ${dir}: run 'svcctl event flush'`);
}

/** The outcome of one delivery. With --spool, an event the service cannot take now (the exit 6 cases) is kept and
 * `spooled`; a rejection never is. After a delivery, the events still waiting are named first, so that the outcome is
 * the last line. */
export async function settleDelivery(
  ctx: Context,
  flag: string | true | undefined,
  baseUrl: string,
  delivery: Delivery,
  body: Buffer,
): Promise<EventOutcome> {
  const { result, failure } = delivery;
  const dir = spoolTarget(ctx, flag);
  if (dir === undefined) return outcomeOf(result, failure);
  if (failure?.exitCode === ExitCode.Unavailable) {
    const path = await spoolEvent(await spoolFor(openSpool(dir, ctx.uid), baseUrl), result.id, body);
    return outcomeOf(result, failure, { path, baseUrl });
  }
  if (!failure) await reportWaiting(ctx, { dir, baseUrl });
  return outcomeOf(result, failure);
}

/** For --ndjson --spool: keeps each event the service could not take. */
export function batchSpool(
  ctx: Context,
  flag: string | true | undefined,
  baseUrl: string,
): ((id: string, body: Buffer) => Promise<void>) | undefined {
  const dir = spoolTarget(ctx, flag);
  if (dir === undefined) return undefined;
  const root = openSpool(dir, ctx.uid);
  let spool: Promise<SpoolFolder> | undefined;
  return async (id, body) => {
    spool ??= spoolFor(root, baseUrl);
    await spoolEvent(await spool, id, body);
  };
}
