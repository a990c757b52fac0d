/** Wiring of `svcctl mcp …`: print, command and proxy here, install, uninstall, list and doctor in their own modules;
 * the options they share are in mcp-options.ts. */
import { type Command, Option } from '@commander-js/extra-typings';
import { DEFAULT_TIMEOUT_SECONDS } from '../core/constants.js';
import { AUTH_METHODS } from '../mcp/types.js';
import type { ContextFactory } from '../core/context.js';
import { positiveSeconds, rejectPasswordFlag } from './parsers.js';
import { addEntryOptions } from './mcp-options.js';
import { registerMcpInstallCommands } from './mcp-install-commands.js';
import { registerMcpDoctorCommand } from './mcp-doctor-commands.js';
import { registerMcpSyncCommands } from './mcp-sync-commands.js';

const PRINT_EXAMPLES = `
Examples:
  svcctl mcp print --client claude-code --base-url https://acme.example.com/api
  svcctl mcp print --client vscode --mode remote --secrets prompt
  svcctl mcp print --client codex --mode remote --auth bearer
  svcctl mcp print --format toml --email me@acme.example --password-file pw.txt --show-secrets`;

const COMMAND_EXAMPLES = `
Examples:
  svcctl mcp command --client claude-code --mode remote
  svcctl mcp command --client gemini
  svcctl mcp command --client cursor --mode remote      # prints install links`;

const PROXY_HELP = `
The MCP address comes from --mcp-url, SERVICE_MCP_URL, or the base URL. stdout is the
protocol; the log goes to stderr. The proxy ends when stdin closes. With --auth bearer
the token is the saved one (svcctl login --save) while it is valid for another minute,
else a new login with the saved email and the password from --password-file,
SERVICE_PASSWORD or the OS keychain (svcctl login --save --remember-password); a 401 is
answered by one new login and the request is sent again, in the same MCP session. The
token goes only to the base URL's origin: an MCP URL elsewhere needs --auth given.

Example (a client's stdio entry):
  { "command": "svcctl", "args": ["mcp", "proxy"], "env": { "SERVICE_BASE_URL": "https://acme.example.com/api" } }`;

export function registerMcpCommands(program: Command, contextFor: ContextFactory): Command {
  const mcp = program
    .command('mcp')
    .description('configure MCP clients to use the service (local, remote or proxy mode)');

  addEntryOptions(mcp.command('print'))
    .description("print the entry as the client's file would hold it (nothing is written)")
    .option('--show-secrets', 'print literal secrets instead of placeholders such as <SERVICE_PASSWORD>')
    .addHelpText('after', PRINT_EXAMPLES)
    .action(async (options, command) => {
      const { runMcpPrint } = await import('../commands/mcp-print.js');
      await runMcpPrint(contextFor(command), options);
    });

  addEntryOptions(mcp.command('command'))
    .description("print the client's own command line (or install link) that adds the same server")
    .option('--show-secrets', 'put literal secrets in the command instead of placeholders')
    .addHelpText('after', COMMAND_EXAMPLES)
    .action(async (options, command) => {
      const { runMcpCommand } = await import('../commands/mcp-print.js');
      await runMcpCommand(contextFor(command), options);
    });

  rejectPasswordFlag(mcp.command('proxy'))
    .description('a stdio MCP server that forwards to the remote MCP server, adding fresh credentials to every request')
    .addOption(
      new Option('--auth <a>', 'bearer (default): a token svcctl renews | password: the email/password headers')
        // No commander default: whether --auth was given decides where a saved token may go (runMcpProxy).
        .choices(AUTH_METHODS),
    )
    .option('--email <e>', 'email to log in with (else SERVICE_EMAIL, else the saved one)')
    .option(
      '--password-file <file>',
      'password to log in with (else SERVICE_PASSWORD, else the OS keychain of login --remember-password)',
    )
    .addOption(
      new Option('--timeout <seconds>', 'deadline of a login, in seconds (at most 3600)')
        .argParser(positiveSeconds)
        .default(DEFAULT_TIMEOUT_SECONDS),
    )
    .addHelpText('after', PROXY_HELP)
    .action(async (options, command) => {
      const { runMcpProxy } = await import('../commands/mcp-proxy.js');
      await runMcpProxy(contextFor(command), options);
    });

  registerMcpInstallCommands(mcp, contextFor);
  registerMcpDoctorCommand(mcp, contextFor);
  registerMcpSyncCommands(mcp, contextFor);
  return mcp;
}
