/**
 * A project-scope file is committed and read on every member's system, but some clients need `cmd /c` before a
 * program that is a `.cmd` file (npx, npm's svcctl shim) on native Windows and have no `cmd` elsewhere (Claude Code's
 * docs: docs/teams.md, "Windows and Linux in one team"). An entry that differs from the one svcctl would write only
 * by that wrapper was written on the other system: neither form starts on both, so sync says so instead of calling
 * it someone else's entry.
 */
import { sameValue } from '../../formats/config-document.js';

type Entry = Record<string, unknown>;

const isEntry = (value: unknown): value is Entry =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isCmd = (word: unknown): boolean => typeof word === 'string' && /^cmd(\.exe)?$/i.test(word);
const isSlashC = (word: unknown): boolean => typeof word === 'string' && word.toLowerCase() === '/c';

/** The entry without its `cmd /c` (a `command` with `args`, or one `command` array), or undefined without one. */
function unwrapped(entry: Entry): Entry | undefined {
  const { command, args } = entry;
  if (Array.isArray(command))
    return isCmd(command[0]) && isSlashC(command[1]) && command.length > 2
      ? { ...entry, command: command.slice(2) }
      : undefined;
  if (!isCmd(command) || !Array.isArray(args) || !isSlashC(args[0]) || typeof args[1] !== 'string') return undefined;
  return { ...entry, command: args[1], args: args.slice(2) };
}

/**
 * 'windows' when `existing` is `wanted` with a `cmd /c` before its program (written on Windows, read here elsewhere),
 * 'elsewhere' for the reverse, undefined when they differ in anything else.
 */
export function otherSystemsForm(existing: unknown, wanted: unknown): 'windows' | 'elsewhere' | undefined {
  if (!isEntry(existing) || !isEntry(wanted)) return undefined;
  const existingBare = unwrapped(existing);
  if (existingBare !== undefined && sameValue(existingBare, wanted)) return 'windows';
  const wantedBare = unwrapped(wanted);
  if (wantedBare !== undefined && sameValue(existing, wantedBare)) return 'elsewhere';
  return undefined;
}
