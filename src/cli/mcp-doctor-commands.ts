/** Wiring of `svcctl mcp get` (the installed entry) and `svcctl mcp doctor` (checks it end to end). */
import { Option, type Command } from '@commander-js/extra-typings';
import { DEFAULT_TIMEOUT_SECONDS, MCP_SERVER_PACKAGE } from '../core/constants.js';
import { addTargetOptions } from './mcp-options.js';
import { positiveSeconds } from './parsers.js';
import type { ContextFactory } from '../core/context.js';

const DOCTOR_EXAMPLES = `
Checks, one line each (stdout), with what to do when one fails:
  config file parses, entry found and its mode (local, remote, proxy), referenced
  variables set (names only, never values); local: node >= 20 and the runner on PATH,
  the server starts and answers initialize over stdio; remote: the server answers
  initialize and tools/list with the entry's own headers; proxy: node and npx on PATH,
  and the URL mcp-remote forwards to answers with the --header values.
A project's entry that svcctl did not write is not started (nor its headers command run) unless you say
yes on a terminal or pass --trust-project; without either the check fails (exit 8). A --config file that
is not the client's user-scope file counts as a project's.
Exit 8 when a check fails (a config file that does not parse too), 2 when no entry is found.
An entry a policy of the machine blocks (Claude Code's managed settings or managed-mcp.json, Copilot's managed
settings for VS Code) fails its policy check and is not started.
--all: every entry svcctl manages, one line each (the first failing check), a summary; exit 8 if any fails.

Examples:
  svcctl mcp doctor                                   # every entry found, one block each
  svcctl mcp doctor --all                             # every entry svcctl manages, one line each
  svcctl mcp doctor --client cursor
  svcctl mcp doctor --client vscode --scope project --name ops
  svcctl mcp doctor --config ./mcp.json --json | jq '.checks[] | select(.ok | not)'`;

export function registerMcpDoctorCommand(mcp: Command, contextFor: ContextFactory): void {
  addTargetOptions(mcp.command('get'))
    .description('print the entry that is installed, with its file (secrets masked)')
    .option(
      '--package <spec>',
      `without --name: the local-mode package that marks our entries (default: ${MCP_SERVER_PACKAGE})`,
    )
    .addHelpText(
      'after',
      '\nExamples:\n  svcctl mcp get --client cursor\n  svcctl --json mcp get --client codex --scope project',
    )
    .action(async (options, command) => {
      const { runMcpGet } = await import('../commands/mcp-get.js');
      await runMcpGet(contextFor(command), options);
    });

  addTargetOptions(mcp.command('doctor'))
    .description('check an installed entry for real: file, variables, runtime, and the server answering')
    .option(
      '--package <spec>',
      `without --name: the local-mode package that marks our entries (default: ${MCP_SERVER_PACKAGE})`,
    )
    .addOption(
      new Option(
        '--timeout <seconds>',
        'time limit of each connection, in seconds (at most 3600; the first npx start downloads the package)',
      )
        .argParser(positiveSeconds)
        .default(DEFAULT_TIMEOUT_SECONDS),
    )
    .option(
      '--trust-project',
      "start a project's entry (or its headersHelper) that svcctl did not write without asking",
    )
    .option(
      '--all',
      "every entry svcctl manages, in every client and scope: one line each and a summary; a project's entry svcctl did not write is skipped, never run",
    )
    .addHelpText('after', DOCTOR_EXAMPLES)
    .action(async (options, command) => {
      if (options.all === true) {
        const { runMcpDoctorAll } = await import('../commands/mcp-doctor-all.js');
        return await runMcpDoctorAll(contextFor(command), options);
      }
      const { runMcpDoctor } = await import('../commands/mcp-doctor.js');
      await runMcpDoctor(contextFor(command), options);
    });
}
