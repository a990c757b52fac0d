// Quoting per shell, so a `${VAR}` reaches the client's file unexpanded by the user's shell and no value ends a word
// early: the rules and their sources are in docs/security.md ("Lines to paste").
import { usageError } from '../../core/errors.js';
import type { PasteShell } from '../types.js';

const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;
// zsh expands a word that starts with `=` to a program's path, fish one that starts with `%self` to its pid.
const SAFE_TO_PASTE = /^[A-Za-z0-9_@+:,./-][A-Za-z0-9_@%+=:,./-]*$/;
// PowerShell runs npm's shims (claude.ps1) as scripts, not native programs, so `,` makes an array and `@` splats;
// `%` is in the stop-parsing `--%`, a leading digit makes a number, and `-x.y` is split at the `.`.
const SAFE_FOR_POWERSHELL = /^(?:[A-Za-z_][A-Za-z0-9_@+=:./-]*|--?[A-Za-z][A-Za-z0-9-]*)$/;
const SAFE_FOR_CMD = /^[A-Za-z0-9_@+=:,./\\-]+$/;
// A pasted line goes through the terminal's line editor, which reads a control character as a key (Tab completes,
// Ctrl-A moves, CR ends the line) unless the terminal brackets the paste; a line feed inside quotes only continues.
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/u;

/** posix: a line /bin/sh runs; posix-or-fish: a line a person pastes into bash, dash, zsh or fish (svcctl cannot tell which). */
export type Shell = 'posix' | 'posix-or-fish' | 'powershell' | 'cmd';

/** The shell of the lines to paste: the one asked for, else PowerShell on Windows and bash's syntax elsewhere. */
export function pasteShellOf(where: { platform: NodeJS.Platform; shell?: PasteShell | undefined }): PasteShell {
  return where.shell ?? (where.platform === 'win32' ? 'powershell' : 'bash');
}

/** How a pasted line is quoted: one way for PowerShell, one that bash, dash, zsh and fish all read alike. */
export function shellFor(where: {
  platform: NodeJS.Platform;
  shell?: PasteShell | undefined;
}): 'posix-or-fish' | 'powershell' {
  return pasteShellOf(where) === 'powershell' ? 'powershell' : 'posix-or-fish';
}

/** A word of a command in a hint, for the shell this platform pastes into; never refused (it is advice, not an entry). */
export function hintWord(arg: string, platform: NodeJS.Platform): string {
  try {
    return quote(arg, shellFor({ platform }));
  } catch {
    return quote(arg, 'posix');
  }
}

/** A line that sets a variable to a command's output (`svcctl token`), with text before it (`Bearer `). */
export function setFromCommand(shell: PasteShell, variable: string, command: string, before = ''): string {
  if (shell === 'powershell')
    return `$env:${variable} = ${before === '' ? `(${command})` : `"${before}$(${command})"`}`;
  if (shell === 'fish') return `set -gx ${variable} ${before === '' ? '' : `'${before}'`}(${command})`;
  return `export ${variable}="${before}$(${command})"`;
}

/** The verb for putting a variable in the environment, in the shell's own words. */
export const exportWord = (shell: PasteShell): string =>
  shell === 'powershell' ? 'set' : shell === 'fish' ? 'set -gx' : 'export';

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

// What cmd.exe reads as its own even in an argument array (architecture.md "cmd /c").
const CMD_LINE_META = /[\^&|<>"\r\n]|%[^%\s]+%/;

/** A `cmd /c` entry: an argument no quoting carries through every client is refused (architecture.md "cmd /c"). */
export function cmdSlashC(program: string, args: string[], client: string): { command: 'cmd'; args: string[] } {
  for (const arg of [program, ...args]) {
    const meta = CMD_LINE_META.exec(arg)?.[0];
    if (meta === undefined) continue;
    const shown = /[\r\n]/.test(meta) ? 'a line break' : `\`${meta.length > 1 ? '%NAME%' : meta}\``;
    throw usageError(
      `${JSON.stringify(arg)} cannot go into ${client}'s entry on Windows: ${client} starts it through \`cmd /c\`, and cmd.exe reads ${shown} as its own (\`^\` is dropped, \`<\` \`>\` redirect, \`&\` \`|\` end the command, \`%NAME%\` expands)`,
      'for --package, name an exact version (name@1.4.2) or a range without ^, < or > (name@1.4.x); for a URL, one without & in its query',
    );
  }
  return { command: 'cmd', args: ['/c', program, ...args] };
}

/** The value is not shown: it may be a secret. */
function refuseControls(arg: string): void {
  const control = CONTROL.exec(arg)?.[0];
  if (control === undefined) return;
  const code = `U+${control.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  throw usageError(
    `a value holds the control character ${code}, which a terminal reads as a key when the line is pasted`,
    "svcctl mcp install writes the same entry into the client's file without a line to paste",
  );
}

/** Inside '…' fish reads \\ and \' as escapes where POSIX shells read none, so a value ending in \ would close no quote
 * in fish. Both characters are therefore written outside the quotes, as \\ and \', which all of them read alike. */
function quoteForPosixOrFish(arg: string): string {
  if (arg !== '' && SAFE_TO_PASTE.test(arg)) return arg;
  refuseControls(arg);
  if (arg === '') return "''";
  return arg
    .split(/(['\\])/)
    .map((part) => (part === "'" || part === '\\' ? `\\${part}` : part === '' ? '' : `'${part}'`))
    .join('');
}

/** PowerShell ends a single-quoted string at ' and at the typographic ‘ ’ ‚ ‛; each is written twice to stay inside. */
export const powerShellString = (value: string): string =>
  `'${value.replace(/['\u2018\u2019\u201a\u201b]/g, (c) => c + c)}'`;

/** Only words every PowerShell argument rule passes alike (architecture.md "PowerShell words"). */
function refuseForNativePassing(arg: string): void {
  const why =
    arg === ''
      ? 'an empty value, which Windows PowerShell 5.1 leaves out'
      : arg.includes('"')
        ? 'a double quote, which Windows PowerShell 5.1 strips before the program sees it'
        : /\s/.test(arg) && arg.endsWith('\\')
          ? 'a space and a final backslash, which Windows PowerShell 5.1 turns into an escaped quote'
          : undefined;
  if (why === undefined) return;
  throw usageError(
    `a value holds ${why}, so the line would not reach the program intact`,
    "svcctl mcp install writes the same entry into the client's file without a line to paste",
  );
}

export function quoteForPowerShell(arg: string): string {
  if (SAFE_FOR_POWERSHELL.test(arg)) return arg;
  refuseControls(arg);
  refuseForNativePassing(arg);
  return powerShellString(arg);
}

export function quote(arg: string, shell: Shell): string {
  if (shell === 'cmd') return quoteForCmd(arg);
  if (shell === 'posix-or-fish') return quoteForPosixOrFish(arg);
  if (shell === 'powershell') return quoteForPowerShell(arg);
  if (arg !== '' && SAFE.test(arg)) return arg;
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
