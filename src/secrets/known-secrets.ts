// Every place that reads a secret adds it here at once, so that Output and what svcctl sends can redact it.
import { createRedactor, URL_PASSWORDS_ONLY, type Redactor } from './redaction.js';

export class KnownSecrets implements Redactor {
  private readonly values = new Set<string>();
  private redactor: Redactor | undefined;

  add<T extends string | undefined>(value: T): T {
    if (value !== undefined && value !== '' && !this.values.has(value)) {
      this.values.add(value);
      this.redactor = undefined;
    }
    return value;
  }

  redact(text: string): string {
    if (this.values.size === 0) return URL_PASSWORDS_ONLY.redact(text);
    return (this.redactor ??= createRedactor(this.values)).redact(text);
  }

  redactValue(value: unknown): unknown {
    if (this.values.size === 0) return URL_PASSWORDS_ONLY.redactValue(value);
    return (this.redactor ??= createRedactor(this.values)).redactValue(value);
  }
}
