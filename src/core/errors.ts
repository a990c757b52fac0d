// The one error type: the exit code (docs/reference.md, "Exit codes") and a hint that says what to do next.
export const ExitCode = {
  Ok: 0,
  Internal: 1,
  Usage: 2,
  InvalidData: 3,
  AuthRejected: 4,
  RequestRejected: 5,
  Unavailable: 6,
  UnsafeConfig: 7,
  CheckFailed: 8,
  PartialFailure: 9,
  Interrupted: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export interface CliErrorOptions {
  hint?: string;
  cause?: unknown;
  /** Already reported on stdout/stderr: the top-level handler only sets the exit code. */
  silent?: boolean;
}

export class CliError extends Error {
  readonly exitCode: ExitCodeValue;
  readonly hint: string | undefined;
  readonly silent: boolean;

  constructor(exitCode: ExitCodeValue, message: string, options: CliErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CliError';
    this.exitCode = exitCode;
    this.hint = options.hint;
    this.silent = options.silent ?? false;
  }
}

export const usageError = (message: string, hint?: string): CliError => new CliError(ExitCode.Usage, message, { hint });

export const invalidData = (message: string, hint?: string): CliError =>
  new CliError(ExitCode.InvalidData, message, { hint });

export const exitWith = (exitCode: ExitCodeValue): CliError =>
  new CliError(exitCode, `exit ${exitCode}`, { silent: true });

export function isCliError(error: unknown): error is CliError {
  return error instanceof CliError;
}
