/**
 * `svcctl event flush`: sends every spooled event with its exact bytes (same
 * id, so the service recognises a duplicate), signed with the current secret.
 * A file is deleted only after a 2xx; a rejected event (4xx other than
 * 401/403) moves to rejected/ with the answer beside it; the rest is kept.
 * Each file is claimed by an atomic rename, so flushers can run concurrently.
 */
import type { Stats } from 'node:fs';
import { EVENT_PATH } from '../core/constants.js';
import type { Context } from '../core/context.js';
import { resolveBaseUrl } from '../config/base-url.js';
import { CliError, ExitCode, usageError } from '../core/errors.js';
import { createTransport } from '../http/transport.js';
import { checkHeaderSafe, resolveSecret, resolveSecretWithSource } from '../config/secret-sources.js';
import { apiUrl } from '../config/settings.js';
import { deliverEvent, type DeliveryTarget } from '../events/deliver.js';
import { claim, openForFlush, openSpool, reject, release, settle } from '../events/spool.js';
import type { SpoolFolder } from '../events/spool-trust.js';
import { spoolTarget } from './event-spool.js';

export interface EventFlushOptions {
  spool?: string | true;
  concurrency: number;
  retries: number;
  httpTimeout: number;
  tokenFile?: string;
  hmacSecretFile?: string;
}

interface Tally {
  flushed: number;
  kept: number;
  rejected: number;
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
    return;
  }
  await release(spool, claimed);
  tally.kept++;
  tally.lastFailure = failure.message;
  ctx.out.debug(`event ${claimed.id} kept: ${failure.message}`);
  if (failure.exitCode === ExitCode.AuthRejected) throw failure;
}

export async function runEventFlush(ctx: Context, options: EventFlushOptions): Promise<void> {
  const spool = openSpool(spoolTarget(ctx, options.spool ?? true) as string, ctx.uid);
  const dir = spool.dir;
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
  const { waiting: names, listed, recovered } = await openForFlush(spool);
  if (recovered > 0) ctx.out.info(`${recovered} event(s) claimed by a flush that stopped were put back`);
  const url = apiUrl(resolveBaseUrl(ctx, "the ingest token and the events' signatures"), EVENT_PATH);
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
  const tally: Tally = { flushed: 0, kept: 0, rejected: 0 };
  let next = 0;
  let stop: CliError | undefined;
  const worker = async (): Promise<void> => {
    while (next < names.length && !stop) {
      const name = names[next++];
      try {
        await flushOne(ctx, spool, name, listed, target, tally);
      } catch (error) {
        if (error instanceof CliError) stop = error;
        else throw error;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(options.concurrency, Math.max(names.length, 1)) }, worker));
  } finally {
    await transport.close();
  }
  const kept = tally.kept + (names.length - next);
  const rejected = tally.rejected > 0 ? `, rejected ${tally.rejected} (in ${dir}/rejected)` : '';
  if (ctx.globals.json) ctx.out.jsonResult({ flushed: tally.flushed, kept, rejected: tally.rejected, spool: dir });
  ctx.out.info(`flushed ${tally.flushed}, kept ${kept}${rejected}`);
  if (stop) throw stop;
  if (kept > 0) {
    const why = tally.lastFailure === undefined ? '' : `: ${tally.lastFailure}`;
    throw new CliError(ExitCode.Unavailable, `${kept} event(s) could not be delivered and stay in ${dir}${why}`, {
      hint: 'run svcctl event flush again later (from cron, say); --verbose shows each event',
    });
  }
}
