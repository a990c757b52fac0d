/** Wiring of `svcctl completion bash|zsh|fish`: prints a completion script generated from the command tree. */
import { Argument, type Command } from '@commander-js/extra-typings';
import type { ContextFactory } from '../core/context.js';
import { SHELLS, type Shell } from './completion-scripts.js';

const COMPLETION_EXAMPLES = `
Examples:
  echo 'eval "$(svcctl completion bash)"' >> ~/.bashrc
  svcctl completion zsh > "\${fpath[1]}/_svcctl"        # then start a new shell (compinit must run)
  svcctl completion fish > ~/.config/fish/completions/svcctl.fish`;

export function registerCompletionCommand(program: Command, contextFor: ContextFactory): void {
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish) for every command and option')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .addHelpText('after', COMPLETION_EXAMPLES)
    .action(async (shell: Shell, _options, command) => {
      const [{ completionTree }, { completionScript }] = await Promise.all([
        import('./completion-tree.js'),
        import('./completion-scripts.js'),
      ]);
      const root = command.parent ?? command;
      contextFor(command).out.stdout.write(completionScript(shell, completionTree(root), root.version() ?? ''));
    });
}
