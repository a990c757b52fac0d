/** Wiring of `svcctl deployment list | use | add | remove` and `svcctl status`. */
import type { Command } from '@commander-js/extra-typings';
import type { ContextFactory } from '../core/context.js';

const DEPLOYMENT_EXAMPLES = `
A deployment is remembered by 'svcctl login --save' (a sandbox on this computer only with
--remember-deployment); commands use it when no --base-url,
--deployment, SERVICE_BASE_URL or SVCCTL_DEPLOYMENT names one.

Examples:
  svcctl deployment list
  svcctl deployment add staging https://staging.acme.example.com/api
  svcctl deployment use staging
  svcctl deployment prune             # forget the ones that do not answer
  svcctl --deployment prod token`;

export function registerDeploymentCommands(program: Command, contextFor: ContextFactory): void {
  const group = program
    .command('deployment')
    .description('the deployments svcctl remembers (list, use, add, remove, prune)')
    .addHelpText('after', DEPLOYMENT_EXAMPLES);
  group
    .command('list')
    .description('list the saved deployments (* marks the default)')
    .action(async (_options, command) => {
      const { runDeploymentList } = await import('../commands/deployments.js');
      await runDeploymentList(contextFor(command));
    });
  group
    .command('use')
    .description('make a saved deployment the default')
    .argument('<name>', 'the deployment')
    .action(async (name: string, _options, command) => {
      const { runDeploymentUse } = await import('../commands/deployments.js');
      await runDeploymentUse(contextFor(command), name);
    });
  group
    .command('add')
    .description('save a deployment under a name')
    .argument('<name>', 'its name, e.g. prod')
    .argument('<base-url>', 'its API base, ending in /api')
    .action(async (name: string, url: string, _options, command) => {
      const { runDeploymentAdd } = await import('../commands/deployments.js');
      await runDeploymentAdd(contextFor(command), name, url);
    });
  group
    .command('remove')
    .description('forget a saved deployment and the token saved for it')
    .argument('<name>', 'the deployment')
    .option('--keep-login', 'keep the token saved for it (and a password in the keychain)')
    .action(async (name: string, options, command) => {
      const { runDeploymentRemove } = await import('../commands/deployments.js');
      await runDeploymentRemove(contextFor(command), name, options);
    });
  group
    .command('prune')
    .description('forget every saved deployment that does not answer (a stopped sandbox), with its saved token')
    .option('--dry-run', 'only list the ones that do not answer')
    .action(async (options, command) => {
      const { runDeploymentPrune } = await import('../commands/deployments.js');
      await runDeploymentPrune(contextFor(command), options);
    });

  program
    .command('status')
    .description('the deployment, the login, the settings set and the MCP clients with our server (never a secret)')
    .option('--check', 'also run mcp doctor on each MCP entry (exit 8 when one fails)')
    .option('--trust-project', "with --check: start the project's entries svcctl did not write without asking")
    .action(async (options, command) => {
      const { runStatus } = await import('../commands/status.js');
      await runStatus(contextFor(command), options);
    });
}
