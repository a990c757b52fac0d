/** Commander value parsers: a bad flag value is a usage error (exit 2). */
import { InvalidArgumentError, Option, type Command } from '@commander-js/extra-typings';
import { usageError } from '../core/errors.js';

export function integerIn(min: number, max: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}`);
    const number = Number(value);
    if (number < min || number > max) throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}`);
    return number;
  };
}

export function positiveSeconds(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0 || number > 3600) {
    throw new InvalidArgumentError('must be a number of seconds above 0 (at most 3600)');
  }
  return number;
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** A hidden --password that fails with a hint: a password given as a flag would show in the process list, so there is
 * none, but people try it. The value is never repeated. Commander emits the event while parsing, so the error ends the
 * run before anything is read or sent. */
export function rejectPasswordFlag(command: Command): Command {
  return command.addOption(new Option('--password [value]').hideHelp()).on('option:password', () => {
    throw usageError(
      "unknown option '--password'",
      'there is no password flag (it would show in the process list): use --password-stdin, --password-file or SERVICE_PASSWORD',
    );
  });
}
