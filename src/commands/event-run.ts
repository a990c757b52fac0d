// `svcctl event run`: exits with the command's code, which a failed send never changes (architecture.md "event run").
import { constants, hostname, userInfo } from 'node:os';
import type { Context } from '../core/context.js';
import { CliError, usageError, type ExitCodeValue } from '../core/errors.js';
import { onInterrupt } from '../core/interrupt.js';
import { Output } from '../core/output.js';
import { environmentSecrets, reported, runEvent } from '../events/run-event.js';
import { isServiceSecretVariable } from '../config/settings.js';
import { exitCodeOf, runCommand, type RunOutcome } from '../events/run-process.js';
import { eventCredentials, runEventSend, type EventSendOptions } from './event-send.js';

export interface EventRunOptions {
  command: string[];
  title?: string;
  investigate?: boolean;
  always?: boolean;
  source?: string;
  severity?: string;
  label?: string[];
  tail: number;
  showArgs?: boolean;
  /** The command's time limit in seconds. */
  timeout?: number;
  /** Each HTTP attempt's time limit in seconds. */
  httpTimeout: number;
  retries: number;
  tokenFile?: string;
  hmacSecretFile?: string;
  spool?: string | true;
  dryRun?: boolean;
  /** Leave svcctl's secret variables in the command's environment (a job that sends events itself). */
  passSecrets?: boolean;
}

function currentUser(env: NodeJS.ProcessEnv): string {
  try {
    return userInfo().username;
  } catch {
    return env.USER ?? env.USERNAME ?? 'unknown';
  }
}

// A wrapped job (a backup script, what it runs) has no use for svcctl's credentials, and may log its environment.
function commandEnv(env: NodeJS.ProcessEnv, passSecrets: boolean): NodeJS.ProcessEnv {
  if (passSecrets) return env;
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isServiceSecretVariable(name)));
}

const SPOOL_HINT = 'give --spool to keep events the service cannot take now';

function labelsOf(pairs: string[]): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw usageError(`--label '${pair}' must be key=value`, 'e.g. --label job=backup');
    labels[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return labels;
}

/** Messages of a real send go to stderr: stdout belongs to the wrapped command. */
function stderrContext(ctx: Context): Context {
  const out = new Output({
    stdout: ctx.out.stderr,
    stderr: ctx.out.stderr,
    env: ctx.env,
    quiet: ctx.out.quiet,
    verbose: ctx.out.verbose,
    color: ctx.globals.color,
    colors: ctx.out.colors,
    redactor: ctx.secrets,
  });
  return { ...ctx, out };
}

export async function runEventRun(ctx: Context, options: EventRunOptions): Promise<void> {
  const [command, ...args] = options.command;
  if (command === undefined)
    throw usageError('no command to run', "give it after '--': svcctl event run -- /usr/local/bin/backup.sh");
  const labels = labelsOf(options.label ?? []);
  const outcome = await runCommand({
    command,
    args,
    env: commandEnv(ctx.env, !!options.passSecrets),
    cwd: ctx.cwd,
    stderr: ctx.out.stderr as Parameters<typeof runCommand>[0]['stderr'],
    platform: ctx.platform,
    timeoutMs: options.timeout === undefined ? undefined : options.timeout * 1000,
    onSignal: (forward) => onInterrupt((signal) => forward(signal)),
  });
  const exitCode = exitCodeOf(outcome, (signal) => constants.signals[signal] ?? 0);
  if (outcome.spawnError) ctx.out.error(`cannot run '${command}': ${spawnReason(outcome.spawnError)}`);
  if (reported(outcome) || options.always || options.dryRun) {
    await sendRunEvent(options.dryRun ? ctx : stderrContext(ctx), options, {
      outcome,
      exitCode,
      command,
      args,
      labels,
    });
  }
  if (exitCode !== 0) throw new CliError(exitCode as ExitCodeValue, `exit ${exitCode}`, { silent: true });
}

interface Run {
  outcome: RunOutcome;
  exitCode: number;
  command: string;
  args: string[];
  labels: Record<string, string>;
}

/** Reads the credentials, builds the event (its tail redacted with them) and sends it; a failure is only reported. */
async function sendRunEvent(ctx: Context, options: EventRunOptions, run: Run): Promise<void> {
  const sendOptions: EventSendOptions = {
    label: [],
    raw: false,
    ndjson: false,
    concurrency: 1,
    retries: options.retries,
    timeout: options.httpTimeout,
    tokenFile: options.tokenFile,
    hmacSecretFile: options.hmacSecretFile,
    spool: options.spool,
    dryRun: !!options.dryRun,
    printCurl: false,
  };
  try {
    for (const value of environmentSecrets(ctx.env)) ctx.secrets.add(value);
    const credentials = await eventCredentials(ctx, sendOptions);
    const event = runEvent(
      run.outcome,
      run.exitCode,
      {
        command: run.command,
        args: run.args,
        title: options.title,
        source: options.source ?? hostname(),
        severity: options.severity,
        tailLines: options.tail,
        showArgs: !!options.showArgs,
        labels: run.labels,
        host: hostname(),
        user: currentUser(ctx.env),
        redactor: ctx.secrets,
      },
      !!options.investigate,
      options.timeout,
    );
    const payload = {
      ...sendOptions,
      title: event.title,
      investigate: event.investigate,
      payload: JSON.stringify(event.payload),
    };
    // Among the job's own output a bare event id says nothing: the outcome is named ("svcctl: event <id> sent: …").
    await runEventSend(ctx, payload, credentials, { json: ctx.globals.json, named: true, failedHint: SPOOL_HINT });
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    // The command's exit code stands: the event's failure is only reported (by the outcome when it was delivered).
    if (!error.silent)
      ctx.out.error(`the event was not sent: ${error.message}`, error.hint ?? (options.spool ? undefined : SPOOL_HINT));
  }
}

/** Why a command could not start, in words (exit 127 or 126 follow, as a shell gives). */
function spawnReason(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such command (not found on PATH, or the path does not exist)';
  if (code === 'EACCES') return 'permission denied (is the file executable?)';
  return error.message;
}
