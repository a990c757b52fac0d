/** Wiring of `svcctl event send | sign | verify` (run and flush: event-run-commands.ts). */
import { type Command, Option } from '@commander-js/extra-typings';
import { DEFAULT_CONCURRENCY, DEFAULT_RETRIES, DEFAULT_TIMEOUT_SECONDS } from '../core/constants.js';
import type { ContextFactory } from '../core/context.js';
import { collect, integerIn, positiveSeconds } from './parsers.js';
import { registerRunAndFlush } from './event-run-commands.js';
// Static, unlike every other action's command: `event send` is the hot path, and its modules are loaded anyway.
import { runEventSend } from '../commands/event-send.js';

const SEND_EXAMPLES = `
Examples:
  svcctl event send --title "CPU high on api-1" --investigate --severity critical --label env=prod
  svcctl event send event.json                  # the whole body {"event":{…}} or the bare event
  jq -c '.[]' events.json | svcctl event send --ndjson - --failed-out failed.ndjson
  svcctl event send wire.json --raw --dry-run   # --raw: the file must already be the wire form,
                                                # {"event":{"id","created_at",…,"payload":"<JSON text>"}}`;

const SUBCOMMANDS = ['send', 'run', 'flush', 'sign', 'verify'];

/** The event group; with `argv`, only the subcommand it names when it names one (as program.ts does for groups:
 * building every option of every subcommand is a tenth of what commander costs `event send`). */
export function registerEventCommands(program: Command, contextFor: ContextFactory, argv?: readonly string[]): void {
  const event = program.command('event').description('send signed events to the Event Ingestion API');
  const named = argv?.[0] === 'event' && SUBCOMMANDS.includes(argv[1] ?? '') ? argv[1] : undefined;
  const wanted = (...names: string[]): boolean => named === undefined || names.includes(named);
  if (wanted('send')) registerSend(event, contextFor);
  if (wanted('run', 'flush')) registerRunAndFlush(event, contextFor);
  if (wanted('sign', 'verify')) registerSignatures(event, contextFor);
}

function registerSend(event: Command, contextFor: ContextFactory): void {
  event
    .command('send')
    .description('build, sign and send an event (or a stream of NDJSON events)')
    .argument('[FILE]', "a JSON file, or '-' for stdin; without FILE the event is built from flags")
    .option('--title <text>', 'event title (flags mode, required)')
    .option('--investigate', 'ask the platform to investigate')
    .option('--source <s>', 'payload source')
    .option('--severity <s>', 'payload severity')
    .option('--message <m>', 'payload message')
    .option('--label <key=value>', 'payload label (repeatable)', collect)
    .option('--payload <json>', 'the whole payload object as JSON text')
    .option('--payload-file <file>', 'the whole payload object from a file')
    .option('--id <uuid>', 'event id (default: a random UUID v4)')
    .option('--created-at <time>', 'ISO 8601 time with a zone (default: now); sent in UTC')
    .option('--raw', 'send FILE/stdin bytes exactly as read (still validated)')
    .option('--ndjson', 'FILE/stdin holds one event per line, streamed')
    .addOption(
      new Option('--concurrency <n>', 'requests in flight with --ndjson (1 to 256)')
        .argParser(integerIn(1, 256))
        .default(DEFAULT_CONCURRENCY),
    )
    .option('--failed-out <file>', 'with --ndjson: append each line not delivered here, byte for byte')
    .option('--token-file <file>', 'file holding the ingest token (else SERVICE_INGEST_TOKEN)')
    .option('--hmac-secret-file <file>', 'file holding the HMAC secret (else SERVICE_HMAC_SECRET)')
    .addOption(
      new Option('--retries <n>', 'retries after the first attempt (0 to 20)')
        .argParser(integerIn(0, 20))
        .default(DEFAULT_RETRIES),
    )
    .addOption(
      new Option(
        '--timeout <seconds>',
        'deadline of each whole attempt (connect, send, answer), in seconds (at most 3600)',
      )
        .argParser(positiveSeconds)
        .default(DEFAULT_TIMEOUT_SECONDS),
    )
    .option('--dry-run', 'print the request (secrets as ***) and send nothing')
    .option('--print-curl', 'print an equivalent curl command and send nothing')
    .option('--spool [DIR]', 'keep an event the service cannot take now (unreachable, 5xx) in DIR for `event flush`')
    .addHelpText('after', SEND_EXAMPLES)
    .action(async (file: string | undefined, options, command) => {
      const concurrencyGiven = command.getOptionValueSource('concurrency') === 'cli';
      const flags = {
        raw: !!options.raw,
        ndjson: !!options.ndjson,
        dryRun: !!options.dryRun,
        printCurl: !!options.printCurl,
      };
      await runEventSend(contextFor(command), { ...options, ...flags, file, concurrencyGiven });
    });
}

function registerSignatures(event: Command, contextFor: ContextFactory): void {
  event
    .command('sign')
    .description('print sha256=<hex>, the signature of the exact bytes of FILE or stdin')
    .argument('[FILE]', "the body file, or '-' for stdin")
    .option('--hmac-secret-file <file>', 'file holding the HMAC secret (else SERVICE_HMAC_SECRET)')
    .action(async (file: string | undefined, options, command) => {
      const { runEventSign } = await import('../commands/event-signature.js');
      await runEventSign(contextFor(command), { ...options, file });
    });

  event
    .command('verify')
    .description('check a signature against the exact bytes of FILE or stdin: "valid" (exit 0) or "invalid" (exit 8)')
    .argument('[FILE]', "the body file, or '-' for stdin")
    .requiredOption('--signature <value>', 'the signature to check: sha256=<64 hex digits>')
    .option('--hmac-secret-file <file>', 'file holding the HMAC secret (else SERVICE_HMAC_SECRET)')
    .action(async (file: string | undefined, options, command) => {
      const { runEventVerify } = await import('../commands/event-signature.js');
      await runEventVerify(contextFor(command), { ...options, file });
    });
}
