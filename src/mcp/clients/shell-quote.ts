/**
 * Quoting for the command lines `svcctl mcp command` prints: POSIX shells on
 * macOS and Linux, PowerShell on Windows. Single quotes in both, so a
 * `${VAR}` reference reaches the client's file as written instead of being
 * expanded (or emptied) by the user's shell.
 */
const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

export type Shell = 'posix' | 'powershell';

export function shellFor(platform: NodeJS.Platform): Shell {
  return platform === 'win32' ? 'powershell' : 'posix';
}

export function quote(arg: string, shell: Shell): string {
  if (arg !== '' && SAFE.test(arg)) return arg;
  if (shell === 'powershell') return `'${arg.replace(/'/g, "''")}'`;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** An argument the user's shell must expand: KEY=<value of $KEY in the shell>. */
export function expandedAssignment(variable: string, shell: Shell): RawArg {
  return { raw: shell === 'powershell' ? `"${variable}=$env:${variable}"` : `"${variable}=$${variable}"` };
}

/** An argument written as is (already quoted for the shell). */
export interface RawArg {
  raw: string;
}

export type Arg = string | RawArg;

export function commandLine(argv: Arg[], shell: Shell): string {
  return argv.map((arg) => (typeof arg === 'string' ? quote(arg, shell) : arg.raw)).join(' ');
}
