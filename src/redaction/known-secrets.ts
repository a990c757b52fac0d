// Every place that reads a secret adds it here at once, so that Output and what svcctl sends can redact it.
// When each source joins (before the arguments are parsed, or at the first write): docs/security.md ("Secrets").
import { createRedactor, URL_PASSWORDS_ONLY, type Redactor } from './redaction.js';

export class KnownSecrets implements Redactor {
  private readonly values = new Set<string>();
  private redactor: Redactor | undefined;
  private readonly pending: Array<() => Iterable<string>> = [];
  private readonly files = new Map<string, string>();

  add<T extends string | undefined>(value: T): T {
    if (value !== undefined && value !== '' && !this.values.has(value)) {
      this.values.add(value);
      this.redactor = undefined;
    }
    return value;
  }

  /** A source read only when something is first written or sent (the saved tokens): reading it costs a file, and most
   * runs of the hot path would never need it before their one result line. */
  addOnFirstUse(source: () => Iterable<string>): void {
    this.pending.push(source);
  }

  /** A secret file read before the arguments were parsed: the command's first read takes this text instead of reading
   * it again (a pipe such as `--token-file <(cmd)` can be read only once); later reads see the file as it is then
   * (`mcp proxy` reads the password file again after a 401). */
  rememberFile(absolutePath: string, text: string): void {
    this.files.set(absolutePath, text);
  }

  takeFileText(absolutePath: string): string | undefined {
    const text = this.files.get(absolutePath);
    this.files.delete(absolutePath);
    return text;
  }

  redact(text: string): string {
    return this.current().redact(text);
  }

  redactValue(value: unknown): unknown {
    return this.current().redactValue(value);
  }

  private current(): Redactor {
    while (this.pending.length > 0) for (const value of this.pending.shift()!()) this.add(value);
    if (this.values.size === 0) return URL_PASSWORDS_ONLY;
    return (this.redactor ??= createRedactor(this.values));
  }
}
