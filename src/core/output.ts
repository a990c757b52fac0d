/**
 * The one place for output and colours. stdout carries only results; every
 * message, warning, progress line and error goes to stderr. Colour is used only
 * on a TTY, never with NO_COLOR, TERM=dumb or --no-color (chalk alone does not
 * honour NO_COLOR). chalk is loaded only when colour can be shown (loadColors,
 * called by top-level.ts): a script's run never loads it (~7 ms of start-up).
 *
 * Every line written is redacted with the run's known secrets (known-secrets.ts):
 * messages always; results unless the result is a secret on purpose (the
 * token of `login` and `token`, `mcp print --show-secrets`) or was redacted
 * already by its caller (a batch's result lines).
 */
import type { ChalkInstance } from 'chalk';
import { createRedactor, type Redactor } from '../secrets/redaction.js';

/** The colours messages use: chalk's, or plain text. */
export type Styles = Pick<ChalkInstance, 'green' | 'yellow' | 'dim' | 'red'>;

const plain = (text: string): string => text;
export const PLAIN_STYLES: Styles = { green: plain, yellow: plain, dim: plain, red: plain } as unknown as Styles;

/** chalk's colours (16-colour level), for an Output whose stderr can show them. */
export async function loadColors(): Promise<Styles> {
  const { Chalk } = await import('chalk');
  return new Chalk({ level: 1 });
}

export interface OutputStream {
  write(chunk: string | Uint8Array): boolean;
  isTTY?: boolean;
}

export interface OutputOptions {
  stdout: OutputStream;
  stderr: OutputStream;
  env: NodeJS.ProcessEnv;
  quiet?: boolean;
  verbose?: boolean;
  /** false when --no-color was given. */
  color?: boolean;
  /** The colours to use when colour is allowed (loadColors); plain text without them. */
  colors?: Styles;
  /** The run's known secrets (known-secrets.ts); without it nothing is redacted. */
  redactor?: Redactor;
}

/** How a result on stdout is written; by default it is redacted. */
export interface ResultOptions {
  /** A secret printed on purpose (login, token, mcp print --show-secrets): written as it is. */
  secret?: boolean;
  /** Redacted already by the caller (the result lines of a batch): not scanned again. */
  redacted?: boolean;
}

const NO_SECRETS = createRedactor([]);

export function colorAllowed(stream: OutputStream, env: NodeJS.ProcessEnv, colorFlag = true): boolean {
  if (!colorFlag || !stream.isTTY) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return env.TERM !== 'dumb';
}

export class Output {
  readonly quiet: boolean;
  readonly verbose: boolean;
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  /** Colours for stderr messages (plain text when colour is not allowed or not loaded). */
  readonly style: Styles;
  /** The colours given, passed on to an Output made from this one. */
  readonly colors: Styles | undefined;
  /** Hides the run's known secrets in everything written (passed on to an Output made from this one). */
  readonly redactor: Redactor;
  private progressShown = false;

  constructor(options: OutputOptions) {
    this.stdout = options.stdout;
    this.stderr = options.stderr;
    this.quiet = options.quiet ?? false;
    this.verbose = options.verbose ?? false;
    this.colors = options.colors;
    this.redactor = options.redactor ?? NO_SECRETS;
    this.style = options.colors && colorAllowed(options.stderr, options.env, options.color ?? true) ? options.colors : PLAIN_STYLES;
  }

  /** True when stderr is a terminal a person watches (progress lines, prompts). */
  get interactiveStderr(): boolean {
    return this.stderr.isTTY === true;
  }

  /** One result line on stdout. */
  result(text: string, options?: ResultOptions): void {
    this.clearProgressBeforeResult();
    const shown = this.shownText(text, options);
    this.stdout.write(shown.endsWith('\n') ? shown : `${shown}\n`);
  }

  /** One JSON document (or NDJSON line) on stdout; strings (keys too) redacted, so it stays valid JSON. */
  jsonResult(value: unknown, options?: ResultOptions): void {
    this.clearProgressBeforeResult();
    const text = JSON.stringify(value);
    this.stdout.write(`${options?.secret || options?.redacted ? text : this.redactedJson(text)}\n`);
  }

  /** Raw bytes on stdout (bodies, diffs), exactly as given when no secret is in them. */
  raw(bytes: string | Uint8Array, options?: ResultOptions): void {
    this.clearProgressBeforeResult();
    if (options?.secret || options?.redacted) return void this.stdout.write(bytes);
    const text = typeof bytes === 'string' ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    const shown = this.redactor.redact(text);
    this.stdout.write(shown === text ? bytes : shown);
  }

  /** A block of text on stderr (a diff, a stack trace), as given but redacted like every message. */
  rawError(text: string): void {
    this.clearProgress();
    this.stderr.write(this.redactor.redact(text));
  }

  private shownText(text: string, options: ResultOptions | undefined): string {
    return options?.secret || options?.redacted ? text : this.redactor.redact(text);
  }

  private redactedJson(text: string): string {
    const parsed: unknown = JSON.parse(text);
    const shown = this.redactor.redactValue(parsed);
    return shown === parsed ? text : JSON.stringify(shown);
  }

  info(message: string): void {
    if (!this.quiet) this.message(message);
  }

  success(message: string): void {
    if (!this.quiet) this.message(`${this.style.green('✓')} ${message}`);
  }

  warn(message: string): void {
    this.message(`${this.style.yellow('warning:')} ${message}`);
  }

  debug(message: string): void {
    if (this.verbose) this.message(this.style.dim(message));
  }

  error(message: string, hint?: string): void {
    this.message(`${this.style.red('error:')} ${message}`);
    if (hint) this.message(`${this.style.dim('hint:')} ${hint}`);
  }

  /** A progress line that rewrites itself; shown only on a TTY and never with --quiet. */
  progress(text: string): void {
    if (!this.interactiveStderr || this.quiet) return;
    this.stderr.write(`\r\x1b[2K${this.redactor.redact(text)}`);
    this.progressShown = true;
  }

  /** A result on a terminal that also shows the progress line: clear the line first, or the two run together. */
  private clearProgressBeforeResult(): void {
    if (this.progressShown && this.stdout.isTTY === true) this.clearProgress();
  }

  clearProgress(): void {
    if (!this.progressShown) return;
    this.stderr.write('\r\x1b[2K');
    this.progressShown = false;
  }

  private message(text: string): void {
    this.clearProgress();
    this.stderr.write(`${this.redactor.redact(text)}\n`);
  }
}
