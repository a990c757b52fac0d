// svcctl's own entries may run svcctl by absolute path (install/svcctl-command.ts); once the clone moved or Node.js
// was upgraded, the client fails with a message about a missing file, so doctor names the path that is gone.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { NAME_PATTERN, type ClientId, type Mode, type Scope } from '../types.js';
import { fail, type CheckResult } from './types.js';

const isAbsolute = (word: string): boolean => path.posix.isAbsolute(word) || path.win32.isAbsolute(word);
const SVCCTL_SCRIPT = /(^|[\\/])svcctl(\.js)?$/i;

async function exists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** None for a line that runs svcctl by name or through npx. */
export async function goneSvcctlPaths(words: string[]): Promise<string[]> {
  const start = /^cmd(\.exe)?$/i.test(words[0] ?? '') && words[1]?.toLowerCase() === '/c' ? 2 : 0;
  const [program, script] = words.slice(start);
  const paths = [program, script].filter((word): word is string => word !== undefined && isAbsolute(word));
  if (paths.length === 0 || !paths.some((word) => SVCCTL_SCRIPT.test(word))) return [];
  const gone: string[] = [];
  for (const file of paths) if (!(await exists(file))) gone.push(file);
  return gone;
}

export interface EntryWhere {
  client: ClientId | null;
  scope: Scope;
  mode: Mode;
  name: string;
}

export function reinstallLine(where: EntryWhere): string {
  const scope = where.scope === 'user' ? '' : ` --scope ${where.scope}`;
  // The name is a key of the client's file, a project's perhaps: one that --name would refuse is not put into a
  // line a person pastes, where `x; curl … | sh` would run.
  const shown = NAME_PATTERN.test(where.name) ? where.name : '<name>';
  const name = where.name === 'service' ? '' : ` --name ${shown}`;
  return `svcctl mcp install --client ${where.client ?? '<id>'} --mode ${where.mode}${scope}${name} --auth bearer --token helper --force`;
}

export function goneCheck(check: string, gone: string[], where: EntryWhere): CheckResult {
  return fail(
    check,
    `the svcctl this entry runs is gone: ${gone.join(' and ')} ${gone.length > 1 ? 'do' : 'does'} not exist (moved or deleted since the entry was written)`,
    `write the entry again with the svcctl you run now: ${reinstallLine(where)}`,
  );
}
