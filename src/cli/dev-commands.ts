/** Wiring of `svcctl dev`, the local sandbox deployment. */
import { Command, Option } from 'commander';
import { DEV_DEFAULT_MAX_BODY_BYTES, DEV_DEFAULT_TOKEN_TTL_SECONDS } from '../constants.js';
import type { ContextFactory } from '../context.js';
import { collect, integerIn } from './parsers.js';

const DEV_EXAMPLES = `
The ready line (stdout, one JSON line, also without --json):
  {"base_url","mcp_url","users":[{"email","password"}],"webhooks":[{"name","ingest_token","hmac_secret"}]}

Examples:
  svcctl dev
  svcctl dev --port 8787 --user alice@example.com:s3cret --webhook alerts:whsec-demo --webhook ci
  svcctl dev --events-file events.ndjson > ready.json &
  export SERVICE_BASE_URL=$(jq -r .base_url ready.json) SERVICE_INGEST_TOKEN=$(jq -r '.webhooks[0].ingest_token' ready.json)`;

export function registerDevCommands(program: Command, contextFor: ContextFactory): void {
  program
    .command('dev')
    .description('run a local sandbox of a deployment on 127.0.0.1 (login, events, identity provider, remote MCP)')
    .addOption(new Option('--port <n>', 'port to listen on; 0 picks a free one').argParser(integerIn(0, 65535)).default(0))
    .option('--user <email:password>', 'a user (repeatable); "--user <email>" gets a random password', collect, [])
    .option('--webhook <name[:hmac-secret]>', 'a webhook connection (repeatable); without a secret no signature is checked', collect, [])
    .addOption(new Option('--token-ttl <seconds>', 'lifetime of login tokens').argParser(integerIn(1, 31_536_000)).default(DEV_DEFAULT_TOKEN_TTL_SECONDS))
    .option('--events-file <file>', 'append accepted events here as NDJSON (read back on start)')
    .addOption(new Option('--max-body <bytes>', 'largest event body accepted (413 above)').argParser(integerIn(1, 1024 * 1024 * 1024)).default(DEV_DEFAULT_MAX_BODY_BYTES))
    .addHelpText('after', DEV_EXAMPLES)
    .action(async (options, command: Command) => {
      const { runDev } = await import('../commands/dev.js');
      await runDev(contextFor(command), options);
    });
}
