/** Wiring of `svcctl dev`, the local sandbox deployment. */
import { type Command, Option } from '@commander-js/extra-typings';
import {
  DEV_DEFAULT_MAX_BODY_BYTES,
  DEV_DEFAULT_TOKEN_TTL_SECONDS,
  DEV_DETACHED_CHILD_FLAG,
  MCP_PROTOCOL_CHOICES,
} from '../core/constants.js';
import type { ContextFactory } from '../core/context.js';
import { READY_FORMATS } from '../sandbox/ready-output.js';
import { collect, integerIn } from './parsers.js';

const DEV_EXAMPLES = `
The ready line (stdout, one JSON line, also without --json):
  {"base_url","mcp_url","users":[{"email","password"}],"webhooks":[{"name","ingest_token","hmac_secret"}]}
With --detach it also has "pid". --format sh|fish|powershell prints commands that set SERVICE_BASE_URL,
SERVICE_MCP_URL, SERVICE_EMAIL, SERVICE_PASSWORD, SERVICE_INGEST_TOKEN, SERVICE_HMAC_SECRET (the first
user and webhook), SERVICE_ACCESS_TOKEN (empty) and, with --detach, SVCCTL_DEV_PID; and a function,
svcctl_dev_stop, that stops the background sandbox and unsets them all.

Examples:
  svcctl dev
  svcctl dev --port 8787 --user alice@example.com:s3cret --webhook alerts:whsec-demo --webhook ci
  svcctl dev --protocol 2026-07-28                                         # an MCP server that speaks only the stateless revision
  eval "$(svcctl dev --detach --format sh)"                                # then: svcctl_dev_stop (stops it, unsets the variables)
  svcctl dev --detach --format fish | source                               # then: svcctl_dev_stop
  svcctl dev --detach --format powershell | Invoke-Expression              # then: svcctl_dev_stop`;

export function registerDevCommands(program: Command, contextFor: ContextFactory): void {
  program
    .command('dev')
    .description('run a local sandbox of a deployment on 127.0.0.1 (login, events, identity provider, remote MCP)')
    .addOption(
      new Option(
        '--port <n>',
        'port to listen on (0 to 65535); 0 picks a free one (default: the port of the last run when free, else any)',
      ).argParser(integerIn(0, 65535)),
    )
    .option('--user <email:password>', 'a user (repeatable); "--user <email>" gets a random password', collect)
    .option(
      '--webhook <name[:hmac-secret]>',
      'a webhook connection (repeatable); without a secret no signature is checked',
      collect,
    )
    .addOption(
      new Option('--token-ttl <seconds>', 'lifetime of login tokens, in seconds (1 to 31536000)')
        .argParser(integerIn(1, 31_536_000))
        .default(DEV_DEFAULT_TOKEN_TTL_SECONDS),
    )
    .option(
      '--events-file <file>',
      "append accepted events here as NDJSON (read back on start; default: events-PORT.ndjson in svcctl's state folder)",
    )
    .option('--no-events-file', 'keep the events in memory only')
    .option('--log-file <file>', 'append the request log here instead of stderr')
    .addOption(
      new Option(
        '--protocol <revision>',
        'MCP protocol revisions /mcp serves: 2025-11-25 (initialize, sessions), 2026-07-28 (stateless) or both',
      )
        .choices(MCP_PROTOCOL_CHOICES)
        .default('both'),
    )
    .option(
      '--one-session-per-user',
      "a new MCP session closes the same user's earlier ones (default: up to 32 per user, 256 in all)",
    )
    .option(
      '--fresh',
      "new ingest tokens and HMAC secret (default: those of the last run, kept in svcctl's state folder)",
    )
    .option('--detach', 'run in the background: return once ready, with the ready line and the process id')
    .addOption(
      new Option(
        '--format <f>',
        'json: the ready line (default); sh, fish, powershell: commands that set the variables',
      ).choices(READY_FORMATS),
    )
    .addOption(new Option(DEV_DETACHED_CHILD_FLAG).hideHelp())
    .addOption(
      new Option('--max-body <bytes>', 'largest event body accepted, in bytes (413 above; at most 1 GiB)')
        .argParser(integerIn(1, 1024 * 1024 * 1024))
        .default(DEV_DEFAULT_MAX_BODY_BYTES),
    )
    .addHelpText('after', DEV_EXAMPLES)
    .action(async (options, command) => {
      const { runDev } = await import('../commands/dev.js');
      await runDev(contextFor(command), options);
    });
}
