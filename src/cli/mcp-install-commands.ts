/** Wiring of `svcctl mcp install | uninstall | list` (the commands that change or read clients' files). */
import type { Command } from '@commander-js/extra-typings';
import { addEntryOptions, addTargetOptions } from './mcp-options.js';
import type { ContextFactory } from '../core/context.js';

const INSTALL_EXAMPLES = `
Examples:
  svcctl mcp install --client claude-code --base-url https://acme.example.com/api
  svcctl mcp install --client cursor --client vscode --mode remote
  svcctl mcp install --client claude-desktop --email me@acme.example --password-file pw.txt
  svcctl mcp install --client codex --dry-run          # print the diff, change nothing
  svcctl mcp install --config ./mcp.json --format servers --secrets literal

Only the entry changes: comments, order, indentation and line endings of the rest of
the file stay as they are. A file that does not parse is never written (exit 7). The old
file is kept as <file>.bak. A differing entry of the same name is replaced only with
--force (or after a confirmation on a terminal).`;

const UNINSTALL_EXAMPLES = `
Examples:
  svcctl mcp uninstall --client claude-code
  svcctl mcp uninstall --all --dry-run
  svcctl mcp uninstall --client vscode --scope project --dry-run`;

const LIST_EXAMPLES = `
Examples:
  svcctl mcp list
  svcctl mcp list --json | jq -r '.[].file'`;

export function registerMcpInstallCommands(mcp: Command, contextFor: ContextFactory): void {
  addEntryOptions(mcp.command('install'))
    .description("add the server to MCP clients' config files (only our entry changes)")
    .option('--dry-run', 'print the unified diff of every file that would change; change nothing')
    .option('--force', 'replace a differing entry of the same name (whole, never merged)')
    .option('--detected', 'every client found on this machine (svcctl mcp clients shows them and why)')
    .option('--no-backup', 'do not keep the old file as <file>.bak')
    .addHelpText('after', INSTALL_EXAMPLES)
    .action(async (options, command) => {
      const { runMcpInstall } = await import('../commands/mcp-install.js');
      await runMcpInstall(contextFor(command), options);
    });

  addTargetOptions(mcp.command('uninstall'))
    .description("remove the server's entry from MCP clients' config files (the rest stays as it is)")
    .option('--dry-run', 'print the unified diff of every file that would change; change nothing')
    .option('--no-backup', 'do not keep the old file as <file>.bak')
    .option('--all', 'from every client and scope that has an entry for the service (mcp list shows them)')
    .option('--yes', 'with --all: remove the listed entries without asking (a terminal is asked, default no)')
    .addHelpText('after', UNINSTALL_EXAMPLES)
    .action(async (options, command) => {
      const { runMcpUninstall } = await import('../commands/mcp-uninstall.js');
      await runMcpUninstall(contextFor(command), options);
    });

  mcp
    .command('list')
    .description(
      'list the entries pointing at this service in every known client config (client, scope, file, name, mode)',
    )
    .option(
      '--project-dir <dir>',
      'the project whose project-scope files are read (default: the root of the git work tree holding the current directory, else that directory)',
    )
    .option('--package <spec>', 'the local-mode package to recognise (default: service-mcp-server)')
    .addHelpText('after', LIST_EXAMPLES)
    .action(async (options, command) => {
      const { runMcpList } = await import('../commands/mcp-list.js');
      await runMcpList(contextFor(command), options);
    });
}
