// `event flush`: same bytes and id; files claimed by rename: flushers may run at once (architecture.md "event flush").
import type { Stats } from 'node:fs';
import { EVENT_PATH } from '../core/constants.js';
import type { Context } from '../core/context.js';
import { resolveBaseUrl } from '../config/base-url.js';
import { CliError, ExitCode, exitWith, usageError } from '../core/errors.js';
import { createTransport } from '../http/transport.js';
import { checkHeaderSafe, resolveSecret, resolveSecretWithSource } from '../config/secret-sources.js';
import { apiUrl, parseBaseUrl } from '../config/settings.js';
import { deliverEvent, type DeliveryTarget } from '../events/deliver.js';
import { type FlushOutcome, flushKind, renderFlushOutcome } from '../events/outcome.js';
import { claim, openForFlush, openSpool, reject, release, type SpoolContents, settle } from '../events/spool.js';
import { type OtherTarget, otherTargets, spooledTargets, targetSpool } from '../events/spool-targets.js';
import type { SpoolFolder } from '../events/spool-trust.js';
import { consentFrom, type LeftBehind, leftCount, probeTargets, reportLeft, whyLeft } from './event-flush-left.js';
import { spoolTarget } from './event-spool.js';

export interface EventFlushOptions {
  spool?: string | true;
  concurrency: number;
  retries: number;
  httpTimeout: number;
  tokenFile?: string;
  hmacSecretFile?: string;
  /** Also send the files of an earlier svcctl, which recorded no base URL, to the base URL resolved now. */
  legacyToCurrent?: boolean;
  /** Also send the events spooled for this base URL to the one resolved now (consent: see consentFrom); normalised. */
  from?: string;
}

interface Tally {
  flushed: number;
  kept: number;
  rejected: number;
  rejectedIn: Set<string>;
  /** Why the last event kept could not be delivered (shown with the summary). */
  lastFailure?: string;
}

const newTally = (): Tally => ({ flushed: 0, kept: 0, rejected: 0, rejectedIn: new Set() });

async function flushOne(
  ctx: Context,
  spool: SpoolFolder,
  name: string,
  listed: Map<string, Stats>,
  target: DeliveryTarget,
  tally: Tally,
): Promise<void> {
  const claimed = await claim(spool, name, listed);
  if (!claimed) return; // another flusher has it
  let outcome;
  try {
    outcome = await deliverEvent(target, claimed.id, claimed.body);
  } catch (error) {
    await release(spool, claimed);
    throw error;
  }
  const { result, failure } = outcome;
  if (!failure) {
    await settle(claimed);
    tally.flushed++;
    return;
  }
  if (failure.exitCode === ExitCode.RequestRejected) {
    const path = await reject(spool, claimed, `${result.error}\n${JSON.stringify(result.response)}\n`);
    ctx.out.warn(`event ${claimed.id} was rejected and moved to ${path}: ${failure.message}`);
    tally.rejected++;
    tally.rejectedIn.add(spool.path('rejected'));
    return;
  }
  await release(spool, claimed);
  tally.kept++;
  tally.lastFailure = failure.message;
  ctx.out.debug(`event ${claimed.id} kept: ${failure.message}`);
  if (failure.exitCode === ExitCode.AuthRejected) throw failure;
}

interface Queued {
  spool: SpoolFolder;
  name: string;
  listed: Map<string, Stats>;
}

interface Plan {
  queue: Queued[];
  left: LeftBehind;
  recovered: number;
}

/** The --from target's events join the queue once consented to; a --from with nothing spooled is said, not fatal. */
async function planFrom(ctx: Context, root: SpoolFolder, baseUrl: string, fromUrl: string, plan: Plan): Promise<void> {
  if (fromUrl === baseUrl) return;
  const folder = targetSpool(root, fromUrl);
  const found = plan.left.elsewhere.find((other) => other.folder === folder.dir);
  if (found === undefined) {
    ctx.out.warn(`--from ${fromUrl}: no event is spooled for it in ${root.dir}`);
    return;
  }
  if (!(await consentFrom(ctx, found, baseUrl))) return;
  const contents = await openForFlush(folder);
  plan.recovered += contents.recovered;
  plan.queue.push(...contents.waiting.map((name) => ({ spool: folder, name, listed: contents.listed })));
  plan.left.elsewhere = plan.left.elsewhere.filter((other) => other !== found);
}

/** What this flush sends, in order: the current base URL's events, then --from's, then the legacy files if asked. */
async function planFlush(
  ctx: Context,
  root: SpoolFolder,
  found: { legacy: SpoolContents & { recovered: number }; spooled: OtherTarget[] },
  baseUrl: string,
  options: EventFlushOptions,
): Promise<Plan> {
  const spool = targetSpool(root, baseUrl);
  const current = await openForFlush(spool);
  const plan: Plan = {
    queue: current.waiting.map((name) => ({ spool, name, listed: current.listed })),
    left: { elsewhere: otherTargets(found.spooled, root, baseUrl), legacy: 0 },
    recovered: found.legacy.recovered + current.recovered,
  };
  if (options.from !== undefined) await planFrom(ctx, root, baseUrl, options.from, plan);
  const { legacy } = found;
  if (options.legacyToCurrent)
    plan.queue.push(...legacy.waiting.map((name) => ({ spool: root, name, listed: legacy.listed })));
  else plan.left.legacy = legacy.waiting.length;
  return plan;
}

async function deliveryTarget(ctx: Context, baseUrl: string, options: EventFlushOptions): Promise<DeliveryTarget> {
  const resolved = await resolveSecretWithSource(ctx, {
    name: 'INGEST_TOKEN',
    what: 'ingest token',
    file: { path: options.tokenFile, flag: '--token-file' },
  });
  if (resolved === undefined) throw usageError('no ingest token: set SERVICE_INGEST_TOKEN or pass --token-file <file>');
  checkHeaderSafe(resolved, 'ingest token');
  const secret = await resolveSecret(ctx, {
    name: 'HMAC_SECRET',
    what: 'HMAC secret',
    file: { path: options.hmacSecretFile, flag: '--hmac-secret-file' },
  });
  const url = apiUrl(baseUrl, EVENT_PATH);
  const transport = await createTransport({
    env: ctx.env,
    origin: new URL(url).origin,
    timeoutMs: options.httpTimeout * 1000,
    connections: options.concurrency,
  });
  return {
    url,
    token: resolved.value,
    secret,
    transport,
    retries: options.retries,
    timeoutSeconds: options.httpTimeout,
    keepResponse: false,
    redactor: ctx.secrets,
  };
}

/** Sends the queue with `concurrency` workers; the first CliError (401/403, an unsafe spool) stops them all. */
async function sendQueue(
  ctx: Context,
  queue: Queued[],
  target: DeliveryTarget,
  concurrency: number,
): Promise<{ tally: Tally; notTried: number; stop: CliError | undefined }> {
  const tally = newTally();
  let next = 0;
  let stop: CliError | undefined;
  const worker = async (): Promise<void> => {
    while (next < queue.length && !stop) {
      const { spool, name, listed } = queue[next++]!;
      try {
        await flushOne(ctx, spool, name, listed, target, tally);
      } catch (error) {
        if (error instanceof CliError) stop = error;
        else throw error;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(queue.length, 1)) }, worker));
  } finally {
    await target.transport.close();
  }
  return { tally, notTried: queue.length - next, stop };
}

const whereJson = (dir: string, baseUrl: string | null, left: LeftBehind): Record<string, unknown> => ({
  legacy: left.legacy,
  spool: dir,
  base_url: baseUrl,
  elsewhere: left.elsewhere.map((o) => ({ base_url: o.baseUrl ?? null, folder: o.folder, events: o.events })),
});

/** Nothing anywhere in the spool: said without a token or a base URL (unset in cron, or a warning each run). */
function renderEmpty(ctx: Context, dir: string): void {
  const where = whereJson(dir, null, { elsewhere: [], legacy: 0 });
  const empty: FlushOutcome = { kind: 'flushed', flushed: 0, kept: 0, left: 0, rejected: 0, rejectedIn: [], where };
  renderFlushOutcome(ctx.out, empty, { json: ctx.globals.json });
}

export async function runEventFlush(ctx: Context, options: EventFlushOptions): Promise<void> {
  const from = options.from === undefined ? undefined : parseBaseUrl(options.from, '--from').url;
  const root = openSpool(spoolTarget(ctx, options.spool ?? true) as string, ctx.uid);
  const dir = root.dir;
  // The whole spool is checked before anything is sent, the folders of other base URLs included.
  const found = { legacy: await openForFlush(root), spooled: await spooledTargets(root) };
  if (found.legacy.waiting.length === 0 && found.spooled.length === 0) return renderEmpty(ctx, dir);
  const baseUrl = resolveBaseUrl(ctx, "the ingest token and the events' signatures");
  const plan = await planFlush(ctx, root, found, baseUrl, { ...options, from });
  if (plan.recovered > 0) ctx.out.info(`${plan.recovered} event(s) claimed by a flush that stopped were put back`);
  const probes = probeTargets(ctx, plan.left.elsewhere);
  // Events only for other base URLs need no token: the flush says where they are, and sends nothing.
  const { tally, notTried, stop } =
    plan.queue.length === 0
      ? { tally: newTally(), notTried: 0, stop: undefined }
      : await sendQueue(ctx, plan.queue, await deliveryTarget(ctx, baseUrl, options), options.concurrency);
  const reach = await probes;
  const spoolFlag = typeof options.spool === 'string' ? dir : undefined;
  reportLeft(ctx, plan.left, reach, baseUrl, spoolFlag);
  const kept = tally.kept + notTried;
  const left = leftCount(plan.left);
  const kind = flushKind(kept, left, stop);
  const stay = { kept, dir, baseUrl, lastFailure: tally.lastFailure, left: plan.left, reach, spoolFlag };
  const code = renderFlushOutcome(
    ctx.out,
    {
      kind,
      flushed: tally.flushed,
      kept,
      left,
      rejected: tally.rejected,
      rejectedIn: [...tally.rejectedIn],
      reason: stop ?? whyLeft(kind, stay),
      where: whereJson(dir, baseUrl, plan.left),
    },
    { json: ctx.globals.json },
  );
  if (code !== ExitCode.Ok) throw exitWith(code);
}
