// Single quotes in POSIX shells and PowerShell, so a `${VAR}` reaches the client's file unexpanded by the user's shell.
import { usageError } from '../../core/errors.js';

const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;
const SAFE_FOR_CMD = /^[A-Za-z0-9_@+=:,./\\-]+$/;

export type Shell = 'posix' | 'powershell' | 'cmd';

/** Where the user pastes a command: PowerShell on Windows. */
export function shellFor(platform: NodeJS.Platform): Shell {
  return platform === 'win32' ? 'powershell' : 'posix';
}

/** Where a client's `shell: true` runs a command line: Node's and Bun's is cmd.exe on Windows (ComSpec), else /bin/sh. */
export function commandShellFor(platform: NodeJS.Platform): 'posix' | 'cmd' {
  return platform === 'win32' ? 'cmd' : 'posix';
}

function quoteForCmd(arg: string): string {
  if (arg !== '' && SAFE_FOR_CMD.test(arg)) return arg;
  // cmd.exe expands %NAME% even between double quotes, and has no way to put a quote inside them.
  if (/["%\r\n]/.test(arg))
    throw usageError(
      `${JSON.stringify(arg)} cannot be written into a command line that cmd.exe runs (it holds " or %)`,
      'move svcctl to a path without them, or use --token static',
    );
  return `"${arg}"`;
}

export function quote(arg: string, shell: Shell): string {
  if (shell === 'cmd') return quoteForCmd(arg);
  if (arg !== '' && SAFE.test(arg)) return arg;
  if (shell === 'powershell') return `'${arg.replace(/'/g, "''")}'`;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function expandedAssignment(variable: string, shell: Shell): RawArg {
  return { raw: shell === 'powershell' ? `"${variable}=$env:${variable}"` : `"${variable}=$${variable}"` };
}

export interface RawArg {
  raw: string;
}

export type Arg = string | RawArg;

export function commandLine(argv: Arg[], shell: Shell): string {
  return argv.map((arg) => (typeof arg === 'string' ? quote(arg, shell) : arg.raw)).join(' ');
}

/** No expansion: enough to read back a line `commandLine` wrote. */
export function posixWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let at = 0; at < line.length; at++) {
    const c = line[at]!;
    if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = line.indexOf("'", at + 1);
      word = (word ?? '') + line.slice(at + 1, end < 0 ? line.length : end);
      at = end < 0 ? line.length : end;
    } else if (c === '"') {
      word ??= '';
      for (at++; at < line.length && line[at] !== '"'; at++) {
        if (line[at] === '\\' && /["\\$`]/.test(line[at + 1] ?? '')) at++;
        word += line[at];
      }
    } else if (c === '\\') {
      word = (word ?? '') + (line[++at] ?? '');
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** Words of a line `commandLine(…, 'cmd')` wrote: double quotes group, nothing escapes. */
export function cmdWords(line: string): string[] {
  return [...line.matchAll(/(?:"[^"]*"?|[^\s"]+)+/g)].map((match) => match[0].replace(/"/g, ''));
}

export function commandWords(line: string, shell: 'posix' | 'cmd'): string[] {
  return shell === 'cmd' ? cmdWords(line) : posixWords(line);
}
