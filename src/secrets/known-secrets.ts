/**
 * The one list of the secret values a run of svcctl holds, and the redactor
 * made from it. Every place that reads a secret adds the value here the
 * moment it has it, whatever the source: a variable or a file
 * (secrets.ts), stdin, a password prompt (ui/prompts.ts), the OS keychain,
 * the saved token (auth/credentials-store.ts), a token a login minted
 * (auth/login-request.ts), the environment of `event run`. Output redacts
 * every line it writes with it (output.ts), and what svcctl builds to send
 * from text it did not write (the tail of `event run`) is redacted with it
 * before it is signed.
 *
 * Adding is O(1) (a Set); the redactor is made again only when a value was
 * added since it was last used, and it compiles its expression only for a
 * text that may hold a secret (redaction.ts).
 */
import { createRedactor, URL_PASSWORDS_ONLY, type Redactor } from './redaction.js';

export class KnownSecrets implements Redactor {
  private readonly values = new Set<string>();
  private redactor: Redactor | undefined;

  /** Adds a secret value (nothing for undefined or an empty string); returns it. */
  add<T extends string | undefined>(value: T): T {
    if (value !== undefined && value !== '' && !this.values.has(value)) {
      this.values.add(value);
      this.redactor = undefined;
    }
    return value;
  }

  /** The text with every form of every known secret, and every URL's password, replaced by *** (redaction.ts). */
  redact(text: string): string {
    if (this.values.size === 0) return URL_PASSWORDS_ONLY.redact(text);
    return (this.redactor ??= createRedactor(this.values)).redact(text);
  }

  /** A JSON value with every string (keys too) redacted. */
  redactValue(value: unknown): unknown {
    if (this.values.size === 0) return URL_PASSWORDS_ONLY.redactValue(value);
    return (this.redactor ??= createRedactor(this.values)).redactValue(value);
  }
}
