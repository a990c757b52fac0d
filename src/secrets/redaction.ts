/**
 * The redaction of secret values in text, in every form they may take. The
 * run's known secrets (known-secrets.ts, `ctx.secrets`) make one from every
 * value read so far, and Output redacts all it writes with it; `mcp doctor`
 * and diffs also make their own from the values an entry holds:
 *
 *   const redactor = createRedactor([token, hmacSecret]);
 *   redactor.redact(message);
 *   redactor.redactValue(parsedBody);
 *
 * For each secret it hides, replacing the match with ***:
 * - the plain text;
 * - any mix of escapes of its characters: JSON (\/, \", \\, \uXXXX in any
 *   hex case, also doubly escaped as \\/ or \\u002f), percent-encoding (%2f,
 *   %2F, UTF-8 bytes, + for a space);
 * - its standard and URL-safe base64, padding optional, alone or inside a
 *   longer base64 text (`Bearer <token>`, `email:password` in a Basic header):
 *   the secret starts at one of three offsets of a 3-byte group, so the
 *   characters that depend on the secret's bytes alone are matched for each
 *   offset; at most two characters on each side, which mix in bytes of the
 *   text around, stay visible.
 *
 * Short secrets: a secret shorter than MIN_SECRET_LENGTH (4) characters is
 * hidden only in its plain form where it stands alone (not inside a word),
 * and none of its encodings are looked for: three characters occur in
 * ordinary text too often to hide them everywhere. A secret shorter than
 * MIN_HIDDEN_LENGTH (3) is not hidden at all: one or two characters ("a",
 * "to", "-1") would turn ordinary words and numbers into ***.
 *
 * Cost: the expression of every form is compiled on the first text that may
 * hold one (~25 ms for two secrets). A text with no backslash and no % can
 * hold a form only as written (no escape), so it is first checked with
 * `includes` for each form as written: an event id, a path or a plain
 * message never compiles anything.
 */

export interface Redactor {
  /** The text with every known form of every secret replaced by ***. */
  redact(text: string): string;
  /** A parsed JSON value with every string (keys too) redacted. */
  redactValue(value: unknown): unknown;
}

export const MIN_SECRET_LENGTH = 4;

/** Shorter secrets are not hidden at all (see above). */
export const MIN_HIDDEN_LENGTH = 3;

/** Base64 pieces shorter than this are not looked for (they would match by chance). */
const MIN_BASE64_PIECE = 4;

const MASK = '***';

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Two hex digits matching in any case: "2f" → "2[fF]". */
function hexPattern(hex: string): string {
  return [...hex].map((digit) => (/[a-f]/i.test(digit) ? `[${digit.toLowerCase()}${digit.toUpperCase()}]` : digit)).join('');
}

const JSON_SHORT_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' };

/** A pattern matching one character (code point) as written or escaped in JSON or a URL. */
function characterPattern(char: string): string {
  const forms = [escapeRegExp(char)];
  // \uXXXX per UTF-16 unit (a surrogate pair is two escapes); one or more backslashes (escaped again).
  const units = [...Array(char.length).keys()].map((index) => `\\\\+u${hexPattern(char.charCodeAt(index).toString(16).padStart(4, '0'))}`);
  forms.push(units.join(''));
  const short = JSON_SHORT_ESCAPES[char];
  if (short !== undefined) forms.push(`\\\\+${escapeRegExp(short)}`);
  // Percent-encoding of the UTF-8 bytes; a space is also + in a form body.
  const bytes = [...Buffer.from(char, 'utf8')].map((byte) => `%${hexPattern(byte.toString(16).padStart(2, '0'))}`);
  forms.push(bytes.join(''));
  if (char === ' ') forms.push('\\+');
  return forms.length === 1 ? forms[0]! : `(?:${forms.join('|')})`;
}

function textPattern(text: string): string {
  return [...text].map(characterPattern).join('');
}

const urlSafe = (base64: string): string => base64.replace(/\+/g, '-').replace(/\//g, '_');

/**
 * The base64 of the secret alone (unpadded), and the characters that depend
 * only on the secret's bytes for each of the three offsets it can have in a
 * longer encoded text; each in both alphabets.
 */
function base64Forms(secret: string): { whole: string[]; pieces: string[] } {
  const bytes = Buffer.from(secret, 'utf8');
  const pieces = new Set<string>();
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    // Character i holds bits 6i..6i+5; keep those inside the secret's bits [8·offset, 8·(offset+n)).
    const first = Math.ceil((8 * offset) / 6);
    const end = Math.floor((8 * (offset + bytes.length)) / 6);
    const piece = encoded.slice(first, end);
    if (piece.length >= MIN_BASE64_PIECE) pieces.add(piece).add(urlSafe(piece));
  }
  const whole = bytes.toString('base64').replace(/=+$/, '');
  return { whole: [...new Set([whole, urlSafe(whole)])], pieces: [...pieces] };
}

const PADDING = `(?:${characterPattern('=')}){0,2}`;

function secretPatterns(secret: string): string[] {
  if ([...secret].length < MIN_SECRET_LENGTH) return [`(?<![\\p{L}\\p{N}_])${escapeRegExp(secret)}(?![\\p{L}\\p{N}_])`];
  const { whole, pieces } = base64Forms(secret);
  // The whole encodings come before the pieces, so that a secret encoded alone is hidden with its padding.
  return [textPattern(secret), ...whole.map((form) => `${textPattern(form)}${PADDING}`), ...pieces.map(textPattern)];
}

/** Every form of the secret as written, with no escape: all that a text without a backslash or % can hold. */
function writtenForms(secret: string): string[] {
  if ([...secret].length < MIN_SECRET_LENGTH) return [secret];
  const { whole, pieces } = base64Forms(secret);
  return [secret, ...whole, ...pieces];
}

const plusAsSpace = (text: string): string => text.replace(/\+/g, ' ');

/**
 * Whether `text` may hold a form of a secret: false only when it cannot (no
 * escape in it, and no form as written; a space may be written + in a form body).
 */
function mayHoldTest(secrets: string[]): (text: string) => boolean {
  const written = [...new Set(secrets.flatMap(writtenForms))];
  const spaced = secrets.filter((secret) => [...secret].length >= MIN_SECRET_LENGTH && secret.includes(' ')).map(plusAsSpace);
  return (text) => {
    if (text.includes('\\') || text.includes('%')) return true;
    for (const form of written) if (text.includes(form)) return true;
    if (spaced.length === 0) return false;
    const spacedText = plusAsSpace(text);
    return spaced.some((secret) => spacedText.includes(secret));
  };
}

const NOTHING: Redactor = { redact: (text) => text, redactValue: (value) => value };

export function createRedactor(secrets: Iterable<string | null | undefined>): Redactor {
  const hidden = (secret: string | null | undefined): secret is string => typeof secret === 'string' && [...secret].length >= MIN_HIDDEN_LENGTH;
  const unique = [...new Set([...secrets].filter(hidden))];
  if (unique.length === 0) return NOTHING;
  // Longer secrets first, so that a secret containing another is hidden whole.
  unique.sort((a, b) => b.length - a.length);
  // No form of a secret is shorter than this (a short secret's plain text; else a base64 piece or the
  // secret itself, one or more UTF-16 units per character): shorter text needs no look.
  const shortest = Math.min(...unique.map((secret) => ([...secret].length < MIN_SECRET_LENGTH ? secret.length : MIN_BASE64_PIECE)));
  const mayHold = mayHoldTest(unique);
  // Compiled on first use (~25-70 ms for the many forms): a command that shows nothing that may hold a secret never pays for it.
  let pattern: RegExp | undefined;
  const redact = (text: string): string =>
    text.length < shortest || !mayHold(text) ? text : text.replace((pattern ??= new RegExp(unique.flatMap(secretPatterns).join('|'), 'gu')), MASK);
  const redactValue = (value: unknown): unknown => {
    if (typeof value === 'string') return redact(value);
    if (Array.isArray(value)) return value.map(redactValue);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [redact(key), redactValue(item)]));
    }
    return value;
  };
  return { redact, redactValue };
}
