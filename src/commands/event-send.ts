/** `svcctl event send`: build, sign and deliver one event or an NDJSON batch. */
import { resolve } from 'node:path';
import { EVENT_PATH } from '../core/constants.js';
import type { Context } from '../core/context.js';
import { resolveBaseUrl } from '../config/base-url.js';
import { ExitCode, exitWith, usageError } from '../core/errors.js';
import { describeInput, readInputBytes } from '../fs/read-input.js';
import {
  checkHeaderSafe,
  resolveSecret,
  resolveSecretWithSource,
  type ResolvedSecret,
} from '../config/secret-sources.js';
import { apiUrl, envName } from '../config/settings.js';
import { buildFromBytes, buildFromEvent, type BuiltEvent, InvalidJson } from '../events/event-body.js';
import { eventFromFlags, usedFlagModeOptions } from '../events/event-flags.js';
import { deliverEvent } from '../events/deliver.js';
import { type EventOutcome, type OutcomeForm, outcomeOf, renderEventOutcome } from '../events/outcome.js';
import type { TokenReference } from '../events/request-preview.js';
import { deliveryTarget } from './event-send-target.js';
import type { EventCredentials, EventSendOptions, Resolved } from './event-send-options.js';

export type { EventCredentials, EventSendOptions } from './event-send-options.js';

function checkCombinations(options: EventSendOptions, json: boolean): void {
  const flagMode = usedFlagModeOptions(options);
  if (options.file !== undefined && flagMode.length > 0) {
    throw usageError(
      `event flags (${flagMode.join(', ')}) cannot be combined with FILE`,
      'give the event either in FILE or with --title and the other event flags',
    );
  }
  if (options.file === undefined && (options.raw || options.ndjson)) {
    throw usageError(`${options.raw ? '--raw' : '--ndjson'} needs FILE, or '-' to read stdin`);
  }
  if (!options.ndjson && (options.failedOut !== undefined || options.concurrencyGiven)) {
    throw usageError('--failed-out and --concurrency go with --ndjson');
  }
  if (options.dryRun && options.printCurl) throw usageError('--dry-run and --print-curl cannot be combined');
  if (json && options.printCurl)
    throw usageError('--json and --print-curl cannot be combined: a curl command is not JSON', 'use --json --dry-run');
}

async function ingestToken(
  ctx: Context,
  options: EventSendOptions,
  sending: boolean,
): Promise<ResolvedSecret | undefined> {
  const token = await resolveSecretWithSource(ctx, {
    name: 'INGEST_TOKEN',
    what: 'ingest token',
    file: { path: options.tokenFile, flag: '--token-file' },
  });
  if (token === undefined && sending) {
    throw usageError(
      'no ingest token: set SERVICE_INGEST_TOKEN or pass --token-file <file>',
      'the ingest token is shown once when the Webhook connection is created',
    );
  }
  if (token) checkHeaderSafe(token, 'ingest token');
  if (token === undefined && options.dryRun)
    ctx.out.warn('no ingest token is set: a real send would fail (SERVICE_INGEST_TOKEN or --token-file)');
  if (token === undefined && options.printCurl) {
    ctx.out.warn(
      `no ingest token is set: the command reads $${envName('INGEST_TOKEN')}, set it before running the command`,
    );
  }
  return token;
}

/** Where --print-curl reads the token: where it was read from (an absolute path for a file), by default the variable. */
function tokenReference(ctx: Context, token: ResolvedSecret | undefined): TokenReference {
  if (token?.source.kind === 'file') return { file: resolve(ctx.cwd, token.source.path) };
  return { env: token?.source.kind === 'env' ? token.source.name : envName('INGEST_TOKEN') };
}

export async function buildSingle(ctx: Context, options: EventSendOptions): Promise<BuiltEvent> {
  if (options.file === undefined) {
    // `echo '{…}' | svcctl event send` without `-`: the event waits on stdin, unread; say how to read it.
    if (options.title === undefined && ctx.stdin.isTTY !== true)
      throw usageError(
        'no event: give --title (and other flags), or a FILE, or - to read stdin',
        "stdin is not a terminal: if the event comes through a pipe, add - (… | svcctl event send -); see 'svcctl event send --help'",
      );
    return buildFromEvent(await eventFromFlags(options, (message) => ctx.out.warn(message), ctx.cwd));
  }
  const bytes = await readInputBytes(options.file, ctx.stdin, ctx.cwd);
  try {
    return buildFromBytes(bytes, { raw: options.raw, label: describeInput(options.file) });
  } catch (error) {
    throw error instanceof InvalidJson ? await error.located() : error;
  }
}

/** Reads the ingest token (exit 2 without one when sending) and the HMAC secret from their files or variables. */
export async function eventCredentials(ctx: Context, options: EventSendOptions): Promise<EventCredentials> {
  const token = await ingestToken(ctx, options, !options.dryRun && !options.printCurl);
  const secret = await resolveSecret(ctx, {
    name: 'HMAC_SECRET',
    what: 'HMAC secret',
    file: { path: options.hmacSecretFile, flag: '--hmac-secret-file' },
  });
  if (secret === undefined) ctx.out.debug('no HMAC secret: the request is sent without a signature header');
  return { token, secret };
}

/** `credentials`: read already by the caller (`event run` reads them before it builds the event, to redact it). `form`:
 * how the outcome of one event is shown (`event run` names it on stderr); by default as `event send` does. */
export async function runEventSend(
  ctx: Context,
  options: EventSendOptions,
  credentials?: EventCredentials,
  form: OutcomeForm = { json: ctx.globals.json },
): Promise<void> {
  checkCombinations(options, ctx.globals.json);
  const sending = !options.dryRun && !options.printCurl;
  const baseUrl = resolveBaseUrl(ctx, sending ? "the ingest token and the event's signature" : undefined);
  const url = apiUrl(baseUrl, EVENT_PATH);
  const { token, secret } = credentials ?? (await eventCredentials(ctx, options));
  const resolved: Resolved = { baseUrl, url, token, secret };
  // The batch and preview paths are chunks of their own: one event loads neither (start-up, BENCHMARKS.md).
  if (options.ndjson) {
    const { FailedOut } = await import('../events/failed-out.js');
    resolved.failedOut = new FailedOut(options.failedOut, ctx.cwd);
    resolved.failedOut.check(options.file);
  }
  if (!sending) {
    const built = options.ndjson ? undefined : await buildSingle(ctx, options);
    return (await import('./event-send-preview.js')).previewRequests(
      ctx,
      options,
      resolved,
      tokenReference(ctx, token),
      built,
    );
  }
  if (options.ndjson) return (await import('./event-send-batch.js')).sendBatch(ctx, options, resolved);
  const code = renderEventOutcome(ctx.out, await sendOne(ctx, options, resolved), form);
  if (code !== ExitCode.Ok) throw exitWith(code);
}

/** Delivers one event; the service's answer, or the spool, decides its outcome (nothing is printed here but retries). */
async function sendOne(
  ctx: Context,
  options: EventSendOptions,
  { baseUrl, url, token, secret }: Resolved,
): Promise<EventOutcome> {
  const built = await buildSingle(ctx, options);
  for (const warning of built.warnings) ctx.out.warn(warning);
  const target = await deliveryTarget(ctx, options, url, token!.value, secret, 1);
  // The answer of a delivered event is kept: --json shows it, and the line says "already received" when it says so.
  target.keepResponse = true;
  try {
    const delivery = await deliverEvent(target, built.id, built.body);
    if (options.spool === undefined) return outcomeOf(delivery.result, delivery.failure);
    const { settleDelivery } = await import('./event-spool.js');
    return await settleDelivery(ctx, options.spool, baseUrl, delivery, built.body);
  } finally {
    await target.transport.close();
  }
}
