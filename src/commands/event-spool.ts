/** `--spool [DIR]` of `event send` and `event run`: where the spool is, and keeping an event there. */
import type { Context } from '../core/context.js';
import type { CliError } from '../core/errors.js';
import type { DeliveryResult } from '../events/deliver.js';
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

/** Keeps an event the service could not take; the command then succeeds (the event was accepted for later). */
export async function spoolFailed(
  ctx: Context,
  place: SpoolPlace,
  result: DeliveryResult,
  failure: CliError,
  body: Buffer,
): Promise<void> {
  const path = await spoolEvent(await spoolFor(openSpool(place.dir, ctx.uid), place.baseUrl), result.id, body);
  ctx.out.warn(`${failure.message}`);
  ctx.out.warn(
    `event ${result.id} was spooled to ${path}, for ${place.baseUrl} only; send it later with 'svcctl event flush'`,
  );
  if (ctx.globals.json) ctx.out.jsonResult({ ...result, status: 'spooled', spooled: path });
  else ctx.out.result(result.id);
}

/** After a delivery: how many events are waiting in the spool for the same base URL. */
export async function reportWaiting(ctx: Context, place: SpoolPlace): Promise<void> {
  const dir = targetSpool(openSpool(place.dir, ctx.uid), place.baseUrl).dir;
  const waiting = await countSpooled(dir).catch(() => 0);
  if (waiting > 0) ctx.out.warn(`${waiting} event(s) are waiting in the spool ${dir}: run 'svcctl event flush'`);
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
