/** "Did you mean …?" for every option and argument with a fixed set of values (--client, --mode, --scope, --format,
 * --auth, --secrets, completion's shell), as commander already says for unknown commands and options; and commander's
 * own error text in svcctl's form: `error:` in red, the suggestion as a `hint:`. */
import { InvalidArgumentError, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Styles } from '../core/output.js';

/** Edits (insert, delete, replace, swap two neighbours) between two words. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The closest choices to `value` (a third of its length in edits at most, as commander's own suggestions), or a prefix match. */
export function closestChoices(value: string, choices: readonly string[]): string[] {
  const lower = value.toLowerCase();
  const prefixed = choices.filter((choice) => lower.length >= 2 && choice.startsWith(lower));
  if (prefixed.length > 0 && prefixed.length <= 3) return prefixed;
  const scored = choices
    .map((choice) => ({ choice, edits: distance(lower, choice.toLowerCase()) }))
    .filter(({ choice, edits }) => edits <= Math.max(1, Math.floor(Math.max(lower.length, choice.length) / 3)));
  const best = Math.min(...scored.map(({ edits }) => edits));
  return scored.filter(({ edits }) => edits === best).map(({ choice }) => choice);
}

type Parser = ((value: string, previous: unknown) => unknown) | undefined;

function checked(choices: readonly string[], original: Parser): (value: string, previous: unknown) => unknown {
  return (given, previous) => {
    // Values are matched without case (`--client Cursor`), then passed on as spelt in the list.
    const value = choices.find((choice) => choice.toLowerCase() === given.toLowerCase()) ?? given;
    if (!choices.includes(value)) {
      const near = closestChoices(value, choices);
      // A long list (31 client ids) buries the suggestion: it is named only when short, else where to find it.
      const allowed =
        choices.length <= 8
          ? `Allowed choices are ${choices.join(', ')}.`
          : `It is not one of the ${choices.length} allowed values (--help lists them).`;
      throw new InvalidArgumentError(`${allowed}${near.length > 0 ? `\n(Did you mean ${near.join(' or ')}?)` : ''}`);
    }
    return original ? original(value, previous) : value;
  };
}

/** Gives every option and argument with choices in the tree a check that suggests the closest value. */
export function suggestChoices(command: CommandUnknownOpts): void {
  const options = command.options as unknown as Array<{ parseArg?: Parser; argChoices?: string[] }>;
  for (const option of options) {
    // Ours checks with a suggestion first, then runs the parser it had (commander's own check, or collect for --client).
    if (option.argChoices) option.parseArg = checked(option.argChoices, option.parseArg);
  }
  for (const argument of command.registeredArguments as unknown as Array<{
    parseArg?: Parser;
    argChoices?: string[];
  }>) {
    if (argument.argChoices) argument.parseArg = checked(argument.argChoices, undefined);
  }
  for (const sub of command.commands) suggestChoices(sub);
}

/** Commander's error text ("error: …\n(Did you mean …?)\n") in svcctl's form. */
export function formatCommanderError(text: string, style: Pick<Styles, 'red' | 'dim'>): string {
  // Other tools spell it as a command (`docker version`, `kubectl version`); svcctl has the option only.
  const asOption = /^error: unknown command 'version'$/m.test(text) && !/^\(Did you mean/m.test(text);
  return (asOption ? `${text.trimEnd()}\n(Did you mean svcctl --version?)\n` : text)
    .replace(/^error: /m, `${style.red('error:')} `)
    .replace(/^\(Did you mean (.*)\?\)$/m, (_, near: string) => `${style.dim('hint:')} did you mean ${near}?`);
}
