/** The commander tree as completion data, read at run time so new options complete by themselves. */
import type { Argument, CommandUnknownOpts as Command, Option } from '@commander-js/extra-typings';

/** What completes a value: fixed choices, a file, a folder, a command to run (`event run -- …`), or nothing (free text). */
export type ValueKind =
  | { kind: 'choices'; choices: readonly string[] }
  | { kind: 'file' }
  | { kind: 'dir' }
  | { kind: 'command' }
  | { kind: 'text' };

export interface CompletionOption {
  /** Every spelling: `-q` and `--quiet`. */
  names: string[];
  description: string;
  /** Undefined for a flag that takes no value (or only an optional one). */
  value?: ValueKind;
}

export interface CompletionNode {
  /** Command names from the root, e.g. ['mcp', 'install']; [] for the root. */
  path: string[];
  commands: Array<{ name: string; description: string }>;
  options: CompletionOption[];
  /** What a positional argument completes to (undefined: no positional argument). */
  argument?: ValueKind;
}

/** A placeholder such as <file>, <dir> or FILE says what the value is. */
function kindOfPlaceholder(name: string, choices?: readonly string[]): ValueKind {
  if (choices && choices.length > 0) return { kind: 'choices', choices };
  if (/^command/i.test(name)) return { kind: 'command' };
  if (/dir/i.test(name)) return { kind: 'dir' };
  if (/file|path/i.test(name)) return { kind: 'file' };
  return { kind: 'text' };
}

function optionOf(option: Option): CompletionOption {
  const names = [option.short, option.long].filter((name): name is string => typeof name === 'string');
  const placeholder = /<([^>]+)>/.exec(option.flags)?.[1];
  return {
    names,
    description: option.description,
    ...(option.required && placeholder !== undefined
      ? { value: kindOfPlaceholder(placeholder, option.argChoices) }
      : {}),
  };
}

function argumentOf(args: readonly Argument[]): ValueKind | undefined {
  const first = args[0];
  return first ? kindOfPlaceholder(first.name(), first.argChoices) : undefined;
}

/** Every command path of the tree, depth first, the root first. */
export function completionTree(root: Command): CompletionNode[] {
  const nodes: CompletionNode[] = [];
  const visit = (command: Command, path: string[], inherited: CompletionOption[]): void => {
    const help = command.createHelp();
    const own = help.visibleOptions(command).map(optionOf);
    const options = [
      ...own,
      ...inherited.filter((option) => !option.names.some((name) => own.some((o) => o.names.includes(name)))),
    ];
    const children = help.visibleCommands(command);
    nodes.push({
      path,
      commands: children.map((child) => ({ name: child.name(), description: child.summary() || child.description() })),
      options,
      argument: argumentOf(command.registeredArguments),
    });
    // -h/--help and -V/--version belong to their own command; the global options are inherited.
    const passed = own.filter((option) => !option.names.includes('--help') && !option.names.includes('--version'));
    for (const child of children) visit(child, [...path, child.name()], [...passed, ...inherited]);
  };
  visit(root, [], []);
  return nodes;
}
