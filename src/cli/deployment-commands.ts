/** Wiring of `svcctl deployment list | use | add | remove` and `svcctl status`. */
import type { Command } from '@commander-js/extra-typings';
import type { ContextFactory } from '../core/context.js';

const DEPLOYMENT_EXAMPLES = `
A deployment is remembered by 'svcctl login --save'; commands use it when no --base-url,
--deployment, SERVICE_BASE_URL or SVCCTL_DEPLOYMENT names one.

Examples:
  svcctl deployment list
  svcctl deployment add staging https://staging.acme.example.com/api
  svcctl deployment use staging
  svcctl --deployment prod token`;

export function registerDeploymentCommands(program: Command, contextFor: ContextFactory): void {
  const group = program.command('deployment').description('the deployments svcctl remembers (list, use, add, remove)').addHelpText('after', DEPLOYMENT_EXAMPLES);
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
    .description('forget a saved deployment (its saved token stays until svcctl logout)')
    .argument('<name>', 'the deployment')
    .action(async (name: string, _options, command) => {
      const { runDeploymentRemove } = await import('../commands/deployments.js');
      await runDeploymentRemove(contextFor(command), name);
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
