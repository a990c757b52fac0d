/** Wiring of `svcctl event run` and `svcctl event flush`. */
import { type Command, InvalidArgumentError, Option, type OptionValues } from '@commander-js/extra-typings';
import { DEFAULT_CONCURRENCY, DEFAULT_RETRIES, DEFAULT_TIMEOUT_SECONDS } from '../core/constants.js';
import type { ContextFactory } from '../core/context.js';
import { collect, integerIn, positiveSeconds } from './parsers.js';

const RUN_EXAMPLES = `
Examples:
  svcctl event run --spool -- /usr/local/bin/backup.sh --full
  svcctl event run --always --label job=backup --timeout 3600 -- pg_dump -f /backups/db.sql app
  svcctl event run --dry-run -- sh -c 'echo oops >&2; exit 3'`;

/** A command's time limit: seconds above 0, up to a week. */
function commandSeconds(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0 || number > 7 * 24 * 3600) {
    throw new InvalidArgumentError('must be a number of seconds above 0 (at most 604800, a week)');
  }
  return number;
}

const httpOptions = <Args extends unknown[], Opts extends OptionValues>(command: Command<Args, Opts>) =>
  command
    .option('--token-file <file>', 'file holding the ingest token (else SERVICE_INGEST_TOKEN)')
    .option('--hmac-secret-file <file>', 'file holding the HMAC secret (else SERVICE_HMAC_SECRET)')
    .addOption(
      new Option('--retries <n>', 'retries after the first attempt (0 to 20)')
        .argParser(integerIn(0, 20))
        .default(DEFAULT_RETRIES),
    )
    .addOption(
      new Option('--http-timeout <seconds>', 'deadline of each whole HTTP attempt, in seconds (at most 3600)')
        .argParser(positiveSeconds)
        .default(DEFAULT_TIMEOUT_SECONDS),
    );

export function registerRunAndFlush(event: Command, contextFor: ContextFactory): void {
  const run = event
    .command('run')
    .description(
      'run a command and send an event when it fails or is stopped by SIGTERM, not on Ctrl+C (exit code passed through)',
    )
    .argument('<COMMAND...>', "the command and its arguments, after '--'")
    .option('--always', 'send an event on success and on Ctrl+C too')
    .option('--investigate', 'ask the platform to investigate the failure event')
    .option(
      '--title <text>',
      'event title (default: "<command> " + what happened: "failed (exit N)", "succeeded", "timed out after Ns", "failed (killed by SIGNAL)", "cancelled (SIGTERM)", "could not start (command not found)")',
    )
    .option('--source <s>', 'payload source (default: the host name)')
    .option(
      '--severity <s>',
      'payload severity (default: error on failure, warning when svcctl was stopped by SIGTERM, info otherwise)',
    )
    .option('--label <key=value>', 'extra payload label (repeatable)', collect)
    .addOption(
      new Option('--tail <n>', 'lines of stderr in the message (0 to 1000; at most 4 KiB)')
        .argParser(integerIn(0, 1000))
        .default(20),
    )
    .option('--show-args', "put the command's arguments in the labels (they may hold secrets)")
    .addOption(
      new Option(
        '--timeout <seconds>',
        "the command's time limit, in seconds (at most 604800, a week): then SIGTERM, SIGKILL 5 s later",
      ).argParser(commandSeconds),
    )
    .option('--spool [DIR]', 'keep the event if the service cannot take it now, for `event flush`')
    .option('--dry-run', 'run the command, print the event that would be sent, send nothing')
    .option(
      '--pass-secrets',
      "leave svcctl's secret variables (SERVICE_INGEST_TOKEN, SERVICE_HMAC_SECRET, SERVICE_PASSWORD, SERVICE_ACCESS_TOKEN) in the command's environment, for a command that runs svcctl itself",
    );
  httpOptions(run)
    .addHelpText('after', RUN_EXAMPLES)
    .action(async (command: string[], options, cmd) => {
      const { runEventRun } = await import('../commands/event-run.js');
      await runEventRun(contextFor(cmd), { ...options, command });
    });

  const flush = event
    .command('flush')
    .description(
      'send every event spooled for the base URL used now; delete each file only after the service accepted it',
    )
    .option('--spool <DIR>', 'the spool folder (else SERVICE_SPOOL_DIR, else $XDG_STATE_HOME/svcctl/spool)')
    .option(
      '--legacy-to-current',
      'also send the events spooled by an earlier svcctl (which recorded no base URL) to the base URL used now',
    )
    .option(
      '--from <url>',
      'also send the events spooled for this base URL to the base URL used now, signed for it (asks at a terminal)',
    )
    .addOption(
      new Option('--concurrency <n>', 'requests in flight (1 to 256)')
        .argParser(integerIn(1, 256))
        .default(DEFAULT_CONCURRENCY),
    );
  httpOptions(flush).action(async (options, cmd) => {
    const { runEventFlush } = await import('../commands/event-flush.js');
    await runEventFlush(contextFor(cmd), options);
  });
}
