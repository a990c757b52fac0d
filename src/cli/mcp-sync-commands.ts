/** Wiring of `svcctl mcp sync` (a team's or a fleet's declared entries) and `svcctl mcp clients` (what is installed). */
import type { Command } from '@commander-js/extra-typings';
import type { ContextFactory } from '../core/context.js';

const SYNC_EXAMPLES = `
Examples:
  svcctl mcp sync --file svcctl-mcp.toml              # add, update, remove: the files hold what the file declares
  svcctl mcp sync --file /etc/svcctl/mcp.toml --yes   # approve without a question (MDM, Ansible)
  svcctl mcp sync --file svcctl-mcp.toml --dry-run    # print the diffs, change nothing
  svcctl mcp sync --file /etc/svcctl/mcp.toml --check --json   # compliance: exit 8 when anything would change

The file (docs/teams.md):
  clients = ["cursor", "vscode", "codex"]   # or "detected"
  scope = "user"                            # or "project": the folder holding the file
  [[server]]
  name = "ops"
  base_url = "https://acme.example.com/api" # or deployment = "<name>"
  mode = "remote"                           # local | remote | proxy
  auth = "bearer"                           # password | bearer; token, secrets, package as in mcp install

Only the entries it wrote are updated or removed; any other entry stays as it is. A declaration's
first sync, and the first after it changed, shows what it writes and asks (--yes approves). Exit 2: a
bad file (the line and the key are named); 7: a file or entry could not be synced, or the declaration
is not approved (nothing written); 8: --check found drift.`;

const CLIENTS_EXAMPLES = `
Examples:
  svcctl mcp clients
  svcctl mcp clients --json | jq -r '.[].client'`;

export function registerMcpSyncCommands(mcp: Command, contextFor: ContextFactory): void {
  mcp
    .command('sync')
    .description("make MCP clients' files hold exactly the entries a TOML file declares (a team's or a fleet's)")
    .requiredOption('--file <file>', 'the declaration: clients, scope and [[server]] tables (docs/teams.md)')
    .option('--dry-run', 'print the unified diff of every file that would change; change nothing')
    .option('--check', 'change nothing; exit 8 when any file would change or an entry cannot be synced')
    .option('--no-backup', 'do not keep the old file as <file>.bak')
    .option('--yes', "approve this declaration's content without asking (scripts, MDM): it is shown first")
    .addHelpText('after', SYNC_EXAMPLES)
    .action(async (options, command) => {
      const { runMcpSync } = await import('../commands/mcp-sync.js');
      await runMcpSync(contextFor(command), options);
    });

  mcp
    .command('clients')
    .description(
      'list the MCP clients found on this machine, with the evidence (config folder, program, app) and version',
    )
    .addHelpText('after', CLIENTS_EXAMPLES)
    .action(async (_options, command) => {
      const { runMcpClients } = await import('../commands/mcp-clients.js');
      await runMcpClients(contextFor(command));
    });
}
