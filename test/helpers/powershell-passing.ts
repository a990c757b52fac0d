/**
 * What a program started from a PowerShell line receives, by the documented rules, since no PowerShell runs here.
 *
 * 1. PowerShell's words: a bare word up to white space, a "…" string whose $env:NAME is the variable's value, or a
 *    single-quoted string, ended by ' or the typographic
 *    ‘ ’ ‚ ‛ and two of them in a row giving one (about_Quoting_Rules,
 *    https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_quoting_rules; CharTraits.cs
 *    IsSingleQuote). A bare word holds none of the argument-mode metacharacters (about_Parsing).
 * 2. A bare `--` is PowerShell's end of parameters and is not passed on when it calls a script, such as npm's
 *    claude.ps1 shim (npm/cli#4903, 2022-05-16; npm/cli#3136): only '--' in quotes reaches the program.
 * 3. The command line built from the words ($PSNativeCommandArgumentPassing, about_Parsing "Passing arguments that
 *    contain quote characters", https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_parsing,
 *    and PowerShell's own code, read 2026-11-28):
 *    - Legacy (Windows PowerShell 5.1 always; pwsh when set): a word with white space outside "…" is put in "…",
 *      nothing is escaped, and an empty word is left out (NativeCommandParameterBinder.cs, NeedQuotes);
 *    - Standard: .NET's ProcessStartInfo.ArgumentList, which escapes by the C runtime's rules (PasteArguments.cs);
 *    - Windows (pwsh 7.3+'s default on Windows): Legacy for .bat .cmd .js .vbs .wsf files and cmd, cscript, wscript,
 *      find, sqlcmd; Standard for everything else (NativeCommandProcessor.cs, s_legacyFileExtensions).
 * 4. The program splits its command line by the C runtime's rules ("Parsing C command-line arguments",
 *    https://learn.microsoft.com/cpp/c-language/parsing-c-command-line-arguments). A .cmd file passes its arguments on
 *    through cmd.exe's `%*`, where % expands and & | < > ^ outside "…" are cmd.exe's own syntax.
 */
import assert from 'node:assert/strict';

const SINGLE_QUOTES = new Set(["'", '\u2018', '\u2019', '\u201a', '\u201b']);
// about_Parsing: `< > @ #` only at the start of a token; `%` for the stop-parsing `--%`; `$` starts a variable.
const METACHARACTERS = /[\s'"`,;(){}|&$%\u2018-\u201e]|^[<>@#]/u;

/** The value a `$env:NAME` of the line stands for: one with a space, which Legacy then puts in "…". */
export const envValue = (name: string): string => `value of ${name}`;

export interface PowerShellWord {
  text: string;
  quoted: boolean;
}

/** PowerShell's words of a line (rule 1), each with whether it was quoted. */
export function powershellTokens(line: string): PowerShellWord[] {
  const words: PowerShellWord[] = [];
  let at = 0;
  while (at < line.length) {
    if (line[at] === ' ') {
      at++;
      continue;
    }
    if (line[at] === '"') {
      // An expandable string, as svcctl writes one: "NAME=$env:NAME", no backtick and no inner quote.
      const end = line.indexOf('"', at + 1);
      assert.ok(end > at, `a string that never ends: ${line}`);
      const text = line.slice(at + 1, end);
      assert.doesNotMatch(text.replace(/\$env:[A-Za-z_][A-Za-z0-9_]*/g, ''), /[$`]/, `more than $env: in: ${text}`);
      words.push({
        text: text.replace(/\$env:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => envValue(name)),
        quoted: true,
      });
      at = end + 1;
      continue;
    }
    if (!SINGLE_QUOTES.has(line[at]!)) {
      const end = line.indexOf(' ', at) < 0 ? line.length : line.indexOf(' ', at);
      const word = line.slice(at, end);
      assert.doesNotMatch(word, METACHARACTERS, `a bare word PowerShell would read as syntax: ${word}`);
      assert.doesNotMatch(word, /^\d|^-.*[.:]/, `a bare word PowerShell may rewrite: ${word}`);
      words.push({ text: word, quoted: false });
      at = end;
      continue;
    }
    let word = '';
    for (at++; ; at++) {
      assert.ok(at < line.length, `a string that never ends: ${line}`);
      const c = line[at]!;
      if (SINGLE_QUOTES.has(c)) {
        if (!SINGLE_QUOTES.has(line[at + 1] ?? '')) break;
        at++;
      }
      word += line[at];
    }
    at++;
    assert.ok(at === line.length || line[at] === ' ', `a string that ends inside a word: ${line}`);
    words.push({ text: word, quoted: true });
  }
  return words;
}

export const powershellWords = (line: string): string[] => powershellTokens(line).map((word) => word.text);

export type PassingMode = 'Legacy' | 'Standard' | 'Windows';
/** How the program is installed: an npm shim PowerShell runs as a script (then node.exe), an .exe, or a .cmd file. */
export type ProgramKind = 'ps1' | 'exe' | 'cmd';

function legacyLine(args: string[]): string {
  return args
    .filter((arg) => arg !== '')
    .map((arg) => (/\s/.test(arg) ? `"${arg}"` : arg))
    .join(' ');
}

function standardArgument(arg: string): string {
  if (arg !== '' && !/[\s"]/.test(arg)) return arg;
  let out = '"';
  for (let at = 0; at < arg.length; ) {
    if (arg[at] === '\\') {
      let count = 0;
      while (arg[at] === '\\') {
        count++;
        at++;
      }
      out += '\\'.repeat(at === arg.length || arg[at] === '"' ? count * 2 : count);
      continue;
    }
    out += arg[at] === '"' ? '\\"' : arg[at];
    at++;
  }
  return `${out}"`;
}

/** The C runtime's split of a command line (rule 4), the program name already taken off. */
export function runtimeArgs(line: string): string[] {
  const args: string[] = [];
  let at = 0;
  for (;;) {
    while (line[at] === ' ' || line[at] === '\t') at++;
    if (at >= line.length) return args;
    let arg = '';
    let quoted = false;
    while (at < line.length && (quoted || (line[at] !== ' ' && line[at] !== '\t'))) {
      if (line[at] === '\\') {
        let count = 0;
        while (line[at] === '\\') {
          count++;
          at++;
        }
        if (line[at] !== '"') arg += '\\'.repeat(count);
        else {
          arg += '\\'.repeat(Math.floor(count / 2));
          if (count % 2 === 1) {
            arg += '"';
            at++;
          }
        }
        continue;
      }
      if (line[at] === '"') {
        if (quoted && line[at + 1] === '"') {
          arg += '"';
          at += 2;
          continue;
        }
        quoted = !quoted;
        at++;
        continue;
      }
      arg += line[at];
      at++;
    }
    args.push(arg);
  }
}

/** cmd.exe's `%*` (rule 4): the line reaches node.exe as written only without % and with & | < > ^ inside "…". */
function assertCmdKeeps(line: string): void {
  assert.ok(!line.includes('%'), `cmd.exe expands % in: ${line}`);
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else assert.ok(quoted || !/[&|<>^]/.test(c), `cmd.exe reads ${c} as its own syntax in: ${line}`);
  }
}

/** The arguments the program receives from a PowerShell line (its first word is the program). */
export function receivedArgs(line: string, kind: ProgramKind, mode: PassingMode): string[] {
  const [, ...words] = powershellTokens(line);
  const passed = words.filter((word) => kind !== 'ps1' || word.quoted || word.text !== '--').map((word) => word.text);
  const legacy = mode === 'Legacy' || (mode === 'Windows' && kind === 'cmd');
  const commandLine = legacy ? legacyLine(passed) : passed.map(standardArgument).join(' ');
  if (kind === 'cmd') assertCmdKeeps(commandLine);
  return runtimeArgs(commandLine);
}

export const PROGRAM_KINDS: readonly ProgramKind[] = ['ps1', 'exe', 'cmd'];
export const PASSING_MODES: readonly PassingMode[] = ['Legacy', 'Standard', 'Windows'];
