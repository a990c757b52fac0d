// stdout carries results only; all is redacted; chalk is loaded only for colour (architecture.md "Output").
import type { ChalkInstance } from 'chalk';
import { createRedactor, type Redactor } from '../redaction/redaction.js';

// Text from elsewhere (a server's answer, a project's file, an MCP server) may carry terminal escape sequences that
// could fake svcctl's own lines. C1 controls count too: some terminals read U+009B as a CSI. The bidi controls
// (U+202A–U+202E, U+2066–U+2069) reorder what follows them on screen ("Trojan Source", CVE-2021-42574), and U+2028
// and U+2029 are line breaks to whatever follows Unicode's rules (docs/security.md). svcctl's own text holds none.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same, with line feed and tab: others' text never makes a line or a column of its own. */
const FOREIGN_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A cut falls between these only: never inside an escape, nor between the halves of a surrogate pair. */
const SHOWN_PIECE = /\\u[0-9a-f]{4}|\\[nrt]|[\s\S]/gu;

const escaped = (ch: string): string => SHORT_ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Shown as \u001b etc.; tab and line feed stay. In JSON text (where only DEL, C1 and the characters above can
 *  be raw) these are JSON escapes: the value is kept. */
export function neutralizeControls(text: string): string {
  return text.replace(CONTROLS, escaped);
}

/** Others' text, for a person: one line, controls escaped, cut at `max` (architecture.md "Others' text on screen"). */
export function foreign(text: string, max = Number.POSITIVE_INFINITY): string {
  const shown = text.replace(FOREIGN_CONTROLS, escaped);
  if (shown.length <= max) return shown;
  let end = 0;
  for (const [piece] of shown.matchAll(SHOWN_PIECE)) {
    if (end + piece.length > max) break;
    end += piece.length;
  }
  return `${shown.slice(0, end)}… (${shown.length - end} more characters)`;
}

export type Styles = Pick<ChalkInstance, 'green' | 'yellow' | 'dim' | 'red'>;

const plain = (text: string): string => text;
export const PLAIN_STYLES: Styles = { green: plain, yellow: plain, dim: plain, red: plain } as unknown as Styles;

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
  color?: boolean;
  colors?: Styles;
  redactor?: Redactor;
}

export interface ResultOptions {
  /** A secret printed on purpose (login, token, mcp print --show-secrets): written as it is. */
  secret?: boolean;
  /** Redacted already by the caller (the result lines of a batch): not scanned again. */
  redacted?: boolean;
  /** svcctl's own text before the result (a coloured mark), written as it is. */
  prefix?: string;
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
  readonly style: Styles;
  readonly colors: Styles | undefined;
  readonly redactor: Redactor;
  private progressShown = false;

  constructor(options: OutputOptions) {
    this.stdout = options.stdout;
    this.stderr = options.stderr;
    this.quiet = options.quiet ?? false;
    this.verbose = options.verbose ?? false;
    this.colors = options.colors;
    this.redactor = options.redactor ?? NO_SECRETS;
    this.style =
      options.colors && colorAllowed(options.stderr, options.env, options.color ?? true)
        ? options.colors
        : PLAIN_STYLES;
  }

  get interactiveStderr(): boolean {
    return this.stderr.isTTY === true;
  }

  result(text: string, options?: ResultOptions): void {
    this.clearProgressBeforeResult();
    const shown = `${options?.prefix ?? ''}${this.shownText(text, options)}`;
    this.stdout.write(shown.endsWith('\n') ? shown : `${shown}\n`);
  }

  /** Strings (keys too) are redacted, so it stays valid JSON. */
  jsonResult(value: unknown, options?: ResultOptions): void {
    this.clearProgressBeforeResult();
    const text = JSON.stringify(value);
    const shown = options?.secret || options?.redacted ? text : this.redactedJson(text);
    this.stdout.write(`${neutralizeControls(shown)}\n`);
  }

  raw(bytes: string | Uint8Array, options?: ResultOptions): void {
    this.clearProgressBeforeResult();
    if (options?.secret || options?.redacted) return void this.stdout.write(bytes);
    const text =
      typeof bytes === 'string'
        ? bytes
        : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    const shown = this.redactor.redact(text);
    this.stdout.write(shown === text ? bytes : shown);
  }

  rawError(text: string): void {
    this.clearProgress();
    this.stderr.write(this.redactor.redact(text));
  }

  private shownText(text: string, options: ResultOptions | undefined): string {
    if (options?.secret) return text;
    return neutralizeControls(options?.redacted ? text : this.redactor.redact(text));
  }

  /** Redacted before it is neutralized: a secret is recognised as it was given. */
  private shownMessage(text: string): string {
    return neutralizeControls(this.redactor.redact(text));
  }

  private redactedJson(text: string): string {
    const parsed: unknown = JSON.parse(text);
    const shown = this.redactor.redactValue(parsed);
    return shown === parsed ? text : JSON.stringify(shown);
  }

  info(message: string): void {
    if (!this.quiet) this.message(this.shownMessage(message));
  }

  success(message: string): void {
    if (!this.quiet) this.message(`${this.style.green('✓')} ${this.shownMessage(message)}`);
  }

  warn(message: string): void {
    this.message(`${this.style.yellow('warning:')} ${this.shownMessage(message)}`);
  }

  debug(message: string): void {
    if (this.verbose) this.message(this.style.dim(this.shownMessage(message)));
  }

  error(message: string, hint?: string): void {
    this.message(`${this.style.red('error:')} ${this.shownMessage(message)}`);
    if (hint) this.message(`${this.style.dim('hint:')} ${this.shownMessage(hint)}`);
  }

  progress(text: string): void {
    if (!this.interactiveStderr || this.quiet) return;
    this.stderr.write(`\r\x1b[2K${this.shownMessage(text)}`);
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

  /** Shown already (shownMessage): only svcctl's own colours are added around it. */
  private message(text: string): void {
    this.clearProgress();
    this.stderr.write(`${text}\n`);
  }
}
