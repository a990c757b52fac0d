/** `svcctl event send`: build, sign and deliver one event or an NDJSON batch. */
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { EVENT_PATH } from '../constants.js';
import type { Context } from '../context.js';
import { resolveBaseUrl } from '../deployment.js';
import { CliError, exitWith, ExitCode, usageError } from '../errors.js';
import { createTransport } from '../http/transport.js';
import { describeInput, readInputBytes } from '../input.js';
import { checkHeaderSafe, resolveSecret, resolveSecretWithSource, type ResolvedSecret } from '../secrets.js';
import { apiUrl, envName } from '../settings.js';
import { runBatch } from '../events/batch.js';
import { buildFromBytes, buildFromEvent, type BuiltEvent } from '../events/event-body.js';
import { eventFromFlags, usedFlagModeOptions, type EventFlags } from '../events/event-flags.js';
import { deliverEvent, type DeliveryTarget } from '../events/deliver.js';
import { FailedOut } from '../events/failed-out.js';
import { splitLines, type InputLine } from '../events/ndjson-lines.js';
import { renderCurl, renderDryRun, renderDryRunJson, type TokenReference } from '../events/request-preview.js';
import { printDryRunBatch } from './event-send-preview.js';
import { batchSpool, reportWaiting, spoolFailed, spoolTarget } from './event-spool.js';

export interface EventSendOptions extends EventFlags {
  file?: string;
  raw: boolean;
  ndjson: boolean;
  concurrency: number;
  failedOut?: string;
  tokenFile?: string;
  hmacSecretFile?: string;
  retries: number;
  timeout: number;
  dryRun: boolean;
  printCurl: boolean;
  /** True when --concurrency was given on the command line. */
  concurrencyGiven?: boolean;
  /** --spool [DIR]: true without a DIR. */
  spool?: string | true;
}

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
  if (json && options.printCurl) throw usageError('--json and --print-curl cannot be combined: a curl command is not JSON', 'use --json --dry-run');
}

async function ingestToken(ctx: Context, options: EventSendOptions, sending: boolean): Promise<ResolvedSecret | undefined> {
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
  if (token === undefined && options.dryRun) ctx.out.warn('no ingest token is set: a real send would fail (SERVICE_INGEST_TOKEN or --token-file)');
  if (token === undefined && options.printCurl) {
    ctx.out.warn(`no ingest token is set: the command reads $${envName('INGEST_TOKEN')}, set it before running the command`);
  }
  return token;
}

/** Where --print-curl reads the token: where it was read from (an absolute path for a file), by default the variable. */
function tokenReference(ctx: Context, token: ResolvedSecret | undefined): TokenReference {
  if (token?.source.kind === 'file') return { file: resolve(ctx.cwd, token.source.path) };
  return { env: token?.source.kind === 'env' ? token.source.name : envName('INGEST_TOKEN') };
}

async function buildSingle(ctx: Context, options: EventSendOptions): Promise<BuiltEvent> {
  if (options.file === undefined) return buildFromEvent(await eventFromFlags(options, (message) => ctx.out.warn(message)));
  const bytes = await readInputBytes(options.file, ctx.stdin);
  return buildFromBytes(bytes, { raw: options.raw, label: describeInput(options.file) });
}

function inputLines(ctx: Context, file: string): AsyncIterable<InputLine> {
  const stream = file === '-' ? ctx.stdin : createReadStream(file, { highWaterMark: 256 * 1024 });
  return splitLines(stream as AsyncIterable<Buffer>);
}

interface Resolved {
  url: string;
  token: ResolvedSecret | undefined;
  secret: string | undefined;
  failedOut: FailedOut;
}

export async function runEventSend(ctx: Context, options: EventSendOptions): Promise<void> {
  checkCombinations(options, ctx.globals.json);
  const sending = !options.dryRun && !options.printCurl;
  const url = apiUrl(resolveBaseUrl(ctx), EVENT_PATH);
  const token = await ingestToken(ctx, options, sending);
  const secret = await resolveSecret(ctx, {
    name: 'HMAC_SECRET',
    what: 'HMAC secret',
    file: { path: options.hmacSecretFile, flag: '--hmac-secret-file' },
  });
  if (secret === undefined) ctx.out.debug('no HMAC secret: the request is sent without a signature header');
  const failedOut = new FailedOut(options.failedOut);
  failedOut.check(options.file);
  const resolved: Resolved = { url, token, secret, failedOut };
  if (!sending) return previewRequests(ctx, options, resolved);
  if (options.ndjson) return sendBatch(ctx, options, resolved);
  return sendOne(ctx, options, resolved);
}

/** --dry-run and --print-curl: every request printed, none sent. */
async function previewRequests(ctx: Context, options: EventSendOptions, { url, token, secret }: Resolved): Promise<void> {
  const reference = tokenReference(ctx, token);
  const render = (body: Buffer): Buffer | string => {
    if (options.printCurl) return renderCurl(url, body, secret, reference);
    return ctx.globals.json ? renderDryRunJson(url, body, secret) : renderDryRun(url, body, secret);
  };
  // Text requests are separated by a blank line; JSON ones are NDJSON lines.
  const separator = ctx.globals.json ? '' : '\n';
  if (options.ndjson) return printDryRunBatch(ctx, inputLines(ctx, options.file as string), options.raw, render, separator);
  const built = await buildSingle(ctx, options);
  for (const warning of built.warnings) ctx.out.warn(warning);
  ctx.out.raw(render(built.body));
}

async function sendOne(ctx: Context, options: EventSendOptions, { url, token, secret }: Resolved): Promise<void> {
  const built = await buildSingle(ctx, options);
  for (const warning of built.warnings) ctx.out.warn(warning);
  const target = await deliveryTarget(ctx, options, url, token!.value, secret, 1);
  try {
    const { result, failure } = await deliverEvent(target, built.id, built.body);
    const spool = spoolTarget(ctx, options.spool);
    if (failure && spool && failure.exitCode === ExitCode.Unavailable) {
      return await spoolFailed(ctx, spool, result, failure, built.body);
    }
    if (ctx.globals.json) ctx.out.jsonResult(result);
    else if (!failure) ctx.out.result(result.id);
    if (failure) throw failure;
    ctx.out.debug(`delivered event ${result.id}: HTTP ${result.status} after ${result.attempts} attempt(s)`);
    if (spool) await reportWaiting(ctx, spool);
  } finally {
    await target.transport.close();
  }
}

async function sendBatch(ctx: Context, options: EventSendOptions, { url, token, secret, failedOut }: Resolved): Promise<void> {
  const target = await deliveryTarget(ctx, options, url, token!.value, secret, options.concurrency);
  target.keepResponse = ctx.globals.json;
  try {
    const summary = await runBatch(inputLines(ctx, options.file as string), {
      concurrency: options.concurrency,
      raw: options.raw,
      target,
      failedOut,
      out: ctx.out,
      json: ctx.globals.json,
      spool: batchSpool(ctx, options.spool),
    });
    const seconds = summary.elapsedMs / 1000;
    const rate = Math.round(summary.sent / Math.max(seconds, 0.001));
    ctx.out.info(`sent ${summary.sent}, failed ${summary.failed} in ${seconds.toFixed(1)}s (${rate} events/s)`);
    if (summary.spooled > 0) ctx.out.warn(`${summary.spooled} event(s) the service could not take were spooled; send them later with 'svcctl event flush'`);
    if (summary.failed > 0) {
      if (failedOut.path) ctx.out.info(`the ${summary.failed} line(s) not delivered were appended to ${failedOut.path}`);
      else ctx.out.warn('lines that were not delivered are lost unless --failed-out <file> is given');
    }
    if (summary.stoppedBy?.exitCode === ExitCode.Interrupted) {
      await target.transport.abort();
      throw new CliError(ExitCode.Interrupted, `interrupted: ${summary.interruptedLines ?? 0} line(s) in flight were not confirmed`, {
        hint: failedOut.path ? `they were appended to ${failedOut.path}; no input was read after them` : 'give --failed-out <file> to keep them',
      });
    }
    if (summary.stoppedBy) throw exitWith(summary.stoppedBy.exitCode);
    if (summary.failed > 0) throw exitWith(ExitCode.PartialFailure);
  } finally {
    await target.transport.close();
  }
}

async function deliveryTarget(
  ctx: Context,
  options: EventSendOptions,
  url: string,
  token: string,
  secret: string | undefined,
  connections: number,
): Promise<DeliveryTarget> {
  const transport = await createTransport({
    env: ctx.env,
    origin: new URL(url).origin,
    timeoutMs: options.timeout * 1000,
    connections,
  });
  return {
    url,
    token,
    secret,
    transport,
    retries: options.retries,
    timeoutSeconds: options.timeout,
    onRetry: ({ attempt, delayMs, reason }) =>
      ctx.out.info(`${reason}; retrying in ${(delayMs / 1000).toFixed(1)}s (attempt ${attempt + 1} of ${options.retries + 1})`),
  };
}
