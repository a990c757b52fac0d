// The one place that turns errors into messages and exit codes: a user mistake never shows a stack trace.
import { CommanderError } from 'commander';
import { CliError, ExitCode } from './core/errors.js';
import { KnownSecrets } from './redaction/known-secrets.js';
import { colorAllowed, loadColors, Output } from './core/output.js';
import { createProgram, helpWordsAsFlag, type Io } from './cli/program.js';
import { learnSecretsEarly } from './config/early-secrets.js';
import { absoluteHome, withoutRelativeFolders } from './config/folder-variables.js';

import { VERSION } from './core/version.js';

// For the entry (bundle-entry.ts), which has the signal handlers before the program is loaded.
export { blockedInRead, interruptHandled } from './core/interrupt.js';

function errorOutput(io: Io, argv: string[]): Output {
  return new Output({
    stdout: io.stdout,
    stderr: io.stderr,
    env: io.env,
    color: !argv.includes('--no-color'),
    colors: io.colors,
    redactor: io.secrets,
  });
}

export function reportError(error: unknown, out: Output, verbose: boolean): number {
  if (error instanceof CliError) {
    if (!error.silent) out.error(error.message, error.hint);
    return error.exitCode;
  }
  if (error instanceof CommanderError) {
    // Commander has printed its message (usage errors) or the help/version text.
    if (
      error.code === 'commander.helpDisplayed' ||
      error.code === 'commander.version' ||
      error.code === 'commander.help'
    ) {
      return ExitCode.Ok;
    }
    return error.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
  }
  const detail = error instanceof Error ? error.message : String(error);
  out.error(
    `internal error: ${detail}`,
    'this is a bug in svcctl; please report it with the command you ran (run with --verbose for details)',
  );
  if (verbose && error instanceof Error && error.stack) out.rawError(`${error.stack}\n`);
  return ExitCode.Internal;
}

/** Relative folder variables and a relative HOME are dropped before any command reads them (folder-variables.ts). */
async function settleFolders(io: Io, argv: string[]): Promise<void> {
  const { env, warnings } = withoutRelativeFolders(io.env, io.platform);
  io.env = env;
  const home = await absoluteHome(io.homeDir, io.platform);
  io.homeDir = home.homeDir;
  if (home.warning !== undefined) warnings.push(home.warning);
  if (warnings.length === 0) return;
  const out = errorOutput(io, argv);
  for (const warning of warnings) out.warn(warning);
}

export async function main(given: string[], io?: Partial<Io>): Promise<number> {
  const argv = helpWordsAsFlag(given);
  const fullIo: Io = {
    env: process.env,
    cwd: process.cwd(),
    homeDir: io?.homeDir ?? (await import('node:os')).homedir(),
    platform: process.platform,
    uid: process.getuid?.(),
    // Read on first use: making process.stdin costs ~5 ms, and most commands never read it.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    version: VERSION,
    secrets: new KnownSecrets(),
    ...io,
  };
  if (fullIo.colors === undefined && colorAllowed(fullIo.stderr, fullIo.env, !argv.includes('--no-color')))
    fullIo.colors = await loadColors();
  try {
    await settleFolders(fullIo, argv);
    // Before commander checks an argument: its errors, and ours, may echo a value that is a secret.
    await learnSecretsEarly(fullIo.secrets, fullIo, argv);
    await (await createProgram(fullIo, argv)).parseAsync(argv, { from: 'user' });
    return ExitCode.Ok;
  } catch (error) {
    return reportError(error, errorOutput(fullIo, argv), argv.includes('--verbose') || argv.includes('-v'));
  }
}
