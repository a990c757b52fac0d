/** Commander value parsers: a bad flag value is a usage error (exit 2). */
import { InvalidArgumentError } from 'commander';

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
