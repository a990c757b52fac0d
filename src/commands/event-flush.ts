/**
 * `svcctl event flush`: sends every event spooled for the base URL resolved now
 * with its exact bytes (same id, so the service recognises a duplicate), signed
 * with the current secret; events for other base URLs are left and named.
 * A file is deleted only after a 2xx; a rejected event (4xx other than
 * 401/403) moves to rejected/ with the answer beside it; the rest is kept.
 * Each file is claimed by an atomic rename, so flushers can run concurrently.
 */
import type { Stats } from 'node:fs';
import { EVENT_PATH } from '../core/constants.js';
import type { Context } from '../core/context.js';
import { resolveBaseUrl } from '../config/base-url.js';
import { CliError, ExitCode, exitWith, usageError } from '../core/errors.js';
import { createTransport } from '../http/transport.js';
import { checkHeaderSafe, resolveSecret, resolveSecretWithSource } from '../config/secret-sources.js';
import { apiUrl } from '../config/settings.js';
import { deliverEvent, type DeliveryTarget } from '../events/deliver.js';
import { flushKind, type FlushOutcomeKind, renderFlushOutcome } from '../events/outcome.js';
import { claim, openForFlush, openSpool, reject, release, settle } from '../events/spool.js';
import { type OtherTarget, otherTargets, targetSpool } from '../events/spool-targets.js';
import type { SpoolFolder } from '../events/spool-trust.js';
import { spoolTarget } from './event-spool.js';

/** What `event flush` leaves in the spool on purpose: events for other base URLs, and those of an earlier svcctl. */
export interface LeftBehind {
  elsewhere: OtherTarget[];
  /** Files of an earlier svcctl (DIR/<id>.json), which recorded no base URL; not sent. */
  legacy: number;
}

export const leftCount = (left: LeftBehind): number =>
  left.elsewhere.reduce((sum, other) => sum + other.events, 0) + left.legacy;

const where = (other: OtherTarget): string =>
  other.baseUrl === undefined
    ? `${other.events} in ${other.folder} (base URL not recorded)`
    : `${other.events} for ${other.baseUrl}`;

export function reportLeft(ctx: Context, left: LeftBehind, baseUrl: string, spoolFlag: string | undefined): void {
  const spool = spoolFlag === undefined ? '' : ` --spool ${spoolFlag}`;
  const { elsewhere } = left;
  if (elsewhere.length > 0) {
    const total = elsewhere.reduce((sum, other) => sum + other.events, 0);
    const known = elsewhere.filter((other) => other.baseUrl !== undefined);
    const url = known.length === 1 && elsewhere.length === 1 ? known[0]!.baseUrl! : '<url>';
    ctx.out.warn(
      `kept ${total} event(s) spooled for another base URL than ${baseUrl}: ${elsewhere.map(where).join(', ')}; ` +
        `flush them with 'svcctl event flush --base-url ${url}${spool}' and that deployment's ingest token and HMAC secret`,
    );
  }
  if (left.legacy > 0) {
    ctx.out.warn(
      `kept ${left.legacy} event(s) spooled by an earlier svcctl, which did not record their base URL: ` +
        `if they are for ${baseUrl}, run this flush again with --legacy-to-current`,
    );
  }
}

export interface EventFlushOptions {
  spool?: string | true;
  concurrency: number;
  retries: number;
  httpTimeout: number;
  tokenFile?: string;
  hmacSecretFile?: string;
  /** Also send the files of an earlier svcctl, which recorded no base URL, to the base URL resolved now. */
  legacyToCurrent?: boolean;
}

interface Tally {
  flushed: number;
  kept: number;
  rejected: number;
  rejectedIn: Set<string>;
  /** Why the last event kept could not be delivered (shown with the summary). */
  lastFailure?: string;
}

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

interface Left {
  kept: number;
  dir: string;
  baseUrl: string;
  lastFailure?: string;
  waiting: number;
}

/** Exit 6 for any event left behind: a cron flush does not report success while events wait. */
function whyLeft(kind: FlushOutcomeKind, left: Left): CliError | undefined {
  if (kind === 'kept') {
    const why = left.lastFailure === undefined ? '' : `: ${left.lastFailure}`;
    return new CliError(
      ExitCode.Unavailable,
      `${left.kept} event(s) could not be delivered and stay in ${left.dir}${why}`,
      {
        hint: 'run svcctl event flush again later (from cron, say); --verbose shows each event',
      },
    );
  }
  if (kind === 'left')
    return new CliError(
      ExitCode.Unavailable,
      `${left.waiting} event(s) stay in ${left.dir}, not sent to ${left.baseUrl}`,
      {
        hint: 'they were spooled for another base URL, or by an earlier svcctl: the warnings above say how to send them',
      },
    );
  return undefined;
}

export async function runEventFlush(ctx: Context, options: EventFlushOptions): Promise<void> {
  const root = openSpool(spoolTarget(ctx, options.spool ?? true) as string, ctx.uid);
  const dir = root.dir;
  const resolved = await resolveSecretWithSource(ctx, {
    name: 'INGEST_TOKEN',
    what: 'ingest token',
    file: { path: options.tokenFile, flag: '--token-file' },
  });
  if (resolved === undefined) throw usageError('no ingest token: set SERVICE_INGEST_TOKEN or pass --token-file <file>');
  checkHeaderSafe(resolved, 'ingest token');
  const token = resolved.value;
  const secret = await resolveSecret(ctx, {
    name: 'HMAC_SECRET',
    what: 'HMAC secret',
    file: { path: options.hmacSecretFile, flag: '--hmac-secret-file' },
  });
  const baseUrl = resolveBaseUrl(ctx, "the ingest token and the events' signatures");
  const url = apiUrl(baseUrl, EVENT_PATH);
  // The whole spool is checked before anything is sent, the folders of other base URLs included.
  const legacy = await openForFlush(root);
  const spool = targetSpool(root, baseUrl);
  const current = await openForFlush(spool);
  const left: LeftBehind = { elsewhere: await otherTargets(root, baseUrl), legacy: 0 };
  const recovered = legacy.recovered + current.recovered;
  if (recovered > 0) ctx.out.info(`${recovered} event(s) claimed by a flush that stopped were put back`);
  const queue = current.waiting.map((name) => ({ spool, name, listed: current.listed }));
  if (options.legacyToCurrent)
    queue.push(...legacy.waiting.map((name) => ({ spool: root, name, listed: legacy.listed })));
  else left.legacy = legacy.waiting.length;
  const transport = await createTransport({
    env: ctx.env,
    origin: new URL(url).origin,
    timeoutMs: options.httpTimeout * 1000,
    connections: options.concurrency,
  });
  const target: DeliveryTarget = {
    url,
    token,
    secret,
    transport,
    retries: options.retries,
    timeoutSeconds: options.httpTimeout,
    keepResponse: false,
    redactor: ctx.secrets,
  };
  const tally: Tally = { flushed: 0, kept: 0, rejected: 0, rejectedIn: new Set() };
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
    await Promise.all(Array.from({ length: Math.min(options.concurrency, Math.max(queue.length, 1)) }, worker));
  } finally {
    await transport.close();
  }
  const kept = tally.kept + (queue.length - next);
  reportLeft(ctx, left, baseUrl, typeof options.spool === 'string' ? dir : undefined);
  const kind = flushKind(kept, leftCount(left), stop);
  const code = renderFlushOutcome(
    ctx.out,
    {
      kind,
      flushed: tally.flushed,
      kept,
      rejected: tally.rejected,
      rejectedIn: [...tally.rejectedIn],
      reason: stop ?? whyLeft(kind, { kept, dir, baseUrl, lastFailure: tally.lastFailure, waiting: leftCount(left) }),
      where: {
        legacy: left.legacy,
        spool: dir,
        base_url: baseUrl,
        elsewhere: left.elsewhere.map((o) => ({ base_url: o.baseUrl ?? null, folder: o.folder, events: o.events })),
      },
    },
    { json: ctx.globals.json },
  );
  if (code !== ExitCode.Ok) throw exitWith(code);
}
