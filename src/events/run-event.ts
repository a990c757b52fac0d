// Arguments appear only with --show-args, masked by value, by flag name and by URL password: they may hold secrets.
import { MIN_SECRET_LENGTH, type Redactor } from '../redaction/redaction.js';
import { maskArgs } from '../redaction/mask-entry.js';
import { isSecretName } from '../redaction/secret-names.js';
import type { RunOutcome } from './run-process.js';

export const MAX_MESSAGE_BYTES = 4096;

export interface RunEventOptions {
  command: string;
  args: string[];
  title?: string;
  source: string;
  severity?: string;
  tailLines: number;
  showArgs: boolean;
  labels: Record<string, string>;
  host: string;
  user: string;
  redactor: Redactor;
}

/** Short values (USE_API_KEY=yes, PASSWORD_MIN=8) are settings more often than secrets. */
export function environmentSecrets(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter(([name, value]) => isSecretName(name) && typeof value === 'string' && value.length >= MIN_SECRET_LENGTH)
    .map(([, value]) => value as string);
}

export function stderrTail(bytes: Buffer, lines: number, redactor: Redactor): string {
  const text = bytes.toString('utf8').replace(/\r\n/g, '\n').replace(/\n+$/, '');
  const kept = lines === 0 ? '' : text.split('\n').slice(-lines).join('\n');
  let message = redactor.redact(kept);
  let encoded = Buffer.from(message, 'utf8');
  if (encoded.length > MAX_MESSAGE_BYTES) {
    // Cut at a character boundary: drop a partial UTF-8 sequence at the start.
    encoded = encoded.subarray(encoded.length - (MAX_MESSAGE_BYTES - 4));
    message = `…${encoded.toString('utf8').replace(/^\uFFFD+/, '')}`;
  }
  return message;
}

/** A run svcctl was told to stop (Ctrl+C, a service manager's stop) did not fail, whatever its exit code. */
export const failed = (outcome: RunOutcome): boolean =>
  outcome.spawnError !== undefined || (outcome.cancelledBy === undefined && (outcome.timedOut || outcome.code !== 0));

/** Whether a run is reported without --always: a failure, and a job stopped by SIGTERM (a shutdown, `systemctl stop`, a
 * pod's end: it did not finish, someone should know). A person's Ctrl+C (SIGINT) is not reported. */
export const reported = (outcome: RunOutcome): boolean => failed(outcome) || outcome.cancelledBy === 'SIGTERM';

function severityOf(outcome: RunOutcome): string {
  if (failed(outcome)) return 'error';
  return outcome.cancelledBy === 'SIGTERM' ? 'warning' : 'info';
}

function what(outcome: RunOutcome, limitSeconds: number | undefined): string {
  if (outcome.spawnError)
    return outcome.spawnError.code === 'ENOENT'
      ? 'could not start (command not found)'
      : `could not start (${outcome.spawnError.code})`;
  if (outcome.cancelledBy) return `cancelled (${outcome.cancelledBy})`;
  if (outcome.timedOut) return `timed out after ${limitSeconds}s`;
  if (outcome.signal) return `failed (killed by ${outcome.signal})`;
  return outcome.code === 0 ? 'succeeded' : `failed (exit ${outcome.code})`;
}

export function runEvent(
  outcome: RunOutcome,
  exitCode: number,
  options: RunEventOptions,
  investigate: boolean,
  limitSeconds?: number,
) {
  const failure = failed(outcome);
  // The event is sent as built, unlike a message: what it holds of the command line is masked here.
  const [name, ...args] = maskArgs([options.command, ...options.args]).map((word) => options.redactor.redact(word));
  const labels: Record<string, string> = {
    exit_code: String(exitCode),
    duration_ms: String(Math.round(outcome.durationMs)),
    host: options.host,
    user: options.user,
    command: options.showArgs ? [name, ...args].join(' ') : name!,
  };
  if (outcome.signal) labels.signal = outcome.signal;
  if (outcome.timedOut) labels.timed_out = 'true';
  if (outcome.cancelledBy) labels.cancelled = outcome.cancelledBy;
  Object.assign(labels, options.labels);
  let message = stderrTail(outcome.stderrTail, options.tailLines, options.redactor);
  if (outcome.spawnError && message === '') message = options.redactor.redact(outcome.spawnError.message);
  return {
    title: options.title ?? `${name} ${what(outcome, limitSeconds)}`,
    investigate: failure && investigate,
    payload: {
      source: options.source,
      severity: options.severity ?? severityOf(outcome),
      message,
      labels,
    },
  };
}
