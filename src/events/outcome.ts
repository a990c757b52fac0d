/** What became of an event, as one value: `event send`, `event run` and `event flush` print their result line, their
 * `--json` result and their exit code from it (renderEventOutcome, renderFlushOutcome), so the words can never say the
 * opposite of the exit code (a spooled event called sent). */
import { type CliError, ExitCode, type ExitCodeValue } from '../core/errors.js';
import type { Output } from '../core/output.js';
import type { DeliveryResult } from './deliver.js';

/** The contract's words for one event: each has one exit code (EXIT_OF). */
export type EventOutcomeKind = 'sent' | 'spooled' | 'rejected' | 'unauthorized' | 'failed';

export const EXIT_OF: Record<EventOutcomeKind, ExitCodeValue> = {
  sent: ExitCode.Ok,
  // Kept for `event flush`: accepted for later, so a script's `ID=$(…)` and a cron job go on.
  spooled: ExitCode.Ok,
  rejected: ExitCode.RequestRejected,
  unauthorized: ExitCode.AuthRejected,
  failed: ExitCode.Unavailable,
};

export interface EventOutcome {
  kind: EventOutcomeKind;
  result: DeliveryResult;
  /** Why it was not sent (for `spooled`, why it had to be kept). */
  failure?: CliError;
  /** Where it was kept, and for which base URL only. */
  spool?: { path: string; baseUrl: string };
}

/** The kind of a delivery that failed with `exitCode` (undefined: it did not fail). */
export function kindOfFailure(exitCode: ExitCodeValue | undefined): EventOutcomeKind {
  if (exitCode === undefined) return 'sent';
  if (exitCode === ExitCode.AuthRejected) return 'unauthorized';
  if (exitCode === ExitCode.RequestRejected) return 'rejected';
  return 'failed';
}

export function outcomeOf(
  result: DeliveryResult,
  failure: CliError | undefined,
  spool?: EventOutcome['spool'],
): EventOutcome {
  return { kind: spool ? 'spooled' : kindOfFailure(failure?.exitCode), result, failure, spool };
}

/** The `--json` result: the delivery's fields, `outcome` the word, `status` always the HTTP status (or null). */
export function outcomeJson(outcome: EventOutcome): Record<string, unknown> {
  const { id, status, attempts, response, truncated, error } = outcome.result;
  return {
    id,
    outcome: outcome.kind,
    status,
    attempts,
    response,
    ...(truncated ? { truncated } : {}),
    ...(error !== undefined ? { error } : {}),
    ...(outcome.spool ? { spooled: outcome.spool.path } : {}),
  };
}

/** The service's answer says it had the event already (the sandbox's `"duplicate": true`, docs/sandbox.md). */
const saysDuplicate = (response: unknown): boolean =>
  response !== null && typeof response === 'object' && (response as { duplicate?: unknown }).duplicate === true;

/** The line that says what happened: `event <id> <outcome>…`. */
export function outcomeLine(outcome: EventOutcome): string {
  const { id, status, attempts } = outcome.result;
  const tries = `HTTP ${status} after ${attempts} attempt${attempts === 1 ? '' : 's'}`;
  if (outcome.kind === 'sent' && saysDuplicate(outcome.result.response))
    return `event ${id} already received: the service had this id and did not store it again (${tries})`;
  if (outcome.kind === 'sent') return `event ${id} sent: ${tries}`;
  const why = outcome.failure?.message ?? 'not delivered';
  if (outcome.kind === 'spooled')
    return `event ${id} spooled, not sent: ${why}; it is kept in ${outcome.spool!.path} for ${outcome.spool!.baseUrl} only, and 'svcctl event flush' sends it later`;
  return `event ${id} ${outcome.kind}, not sent: ${why}`;
}

export interface OutcomeForm {
  json: boolean;
  /** `event run`: stdout is the wrapped command's, so the result is the named line on stderr (ctx.out writes its
   * results there). `event send`: the result is the bare id on stdout, and the line a message. */
  named?: boolean;
  /** Said after a `failed` line that has no hint of its own. */
  failedHint?: string;
}

/** Prints the outcome and gives its exit code. Text: the id on stdout for an event the service has or will have, then
 * the line (a message for `sent`, so -q leaves only the id; a warning for `spooled`; an error otherwise). --json: the
 * document in place of the id. */
export function renderEventOutcome(out: Output, outcome: EventOutcome, form: OutcomeForm): ExitCodeValue {
  const line = outcomeLine(outcome);
  const kept = outcome.kind === 'sent' || outcome.kind === 'spooled';
  if (form.json) out.jsonResult(outcomeJson(outcome));
  else if (kept && !form.named) out.result(outcome.result.id);
  if (outcome.kind === 'sent') {
    // `event run`'s line is named on stderr, where the wrapped command writes too, with --json as without.
    if (form.named && !form.json) out.result(`svcctl: ${line}`);
    else out.info(form.named ? `svcctl: ${line}` : line);
  } else if (outcome.kind === 'spooled') out.warn(line);
  else out.error(line, outcome.failure?.hint ?? (outcome.kind === 'failed' ? form.failedHint : undefined));
  return EXIT_OF[outcome.kind];
}

/** `event flush`: every event of the base URL delivered (or moved to rejected/), or why some stay. */
export type FlushOutcomeKind = 'flushed' | 'kept' | 'unauthorized' | 'stopped' | 'left';

export interface FlushOutcome {
  kind: FlushOutcomeKind;
  flushed: number;
  kept: number;
  /** Events not tried: spooled for another base URL, or by an earlier svcctl (the warnings name them). */
  left: number;
  rejected: number;
  /** The rejected/ folders the rejected events were moved to. */
  rejectedIn: string[];
  /** What `kept` and `left` leave, and why: the message and hint of the error line. */
  reason?: CliError;
  /** The --json fields that say where: spool, base_url, legacy, elsewhere. */
  where: Record<string, unknown>;
}

export function flushKind(kept: number, leftBehind: number, stop: CliError | undefined): FlushOutcomeKind {
  if (stop) return stop.exitCode === ExitCode.AuthRejected ? 'unauthorized' : 'stopped';
  if (kept > 0) return 'kept';
  return leftBehind > 0 ? 'left' : 'flushed';
}

export function renderFlushOutcome(out: Output, outcome: FlushOutcome, form: Pick<OutcomeForm, 'json'>): ExitCodeValue {
  const { flushed, kept, left, rejected } = outcome;
  if (form.json) out.jsonResult({ outcome: outcome.kind, flushed, kept, left, rejected, ...outcome.where });
  const moved = rejected > 0 ? `, rejected ${rejected} (in ${outcome.rejectedIn.join(' and ')})` : '';
  const line = `flushed ${flushed}, kept ${kept}${left > 0 ? `, left ${left}` : ''}${moved}`;
  if (outcome.kind === 'flushed') {
    out.info(line);
    return ExitCode.Ok;
  }
  out.error(`${line}: ${outcome.reason?.message ?? outcome.kind}`, outcome.reason?.hint);
  return outcome.kind === 'stopped'
    ? outcome.reason!.exitCode
    : outcome.kind === 'unauthorized'
      ? ExitCode.AuthRejected
      : ExitCode.Unavailable;
}
