/**
 * One redaction for everything svcctl shows that a server or a child process
 * said: error messages, --json fields, doctor details, diffs. Build it once
 * per command with the secrets that command knows, then run every line
 * through it:
 *
 *   const redactor = createRedactor([token, hmacSecret]);
 *   out.error(redactor.redact(message));
 *   out.jsonResult(redactor.redactValue(parsedBody));
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
 * and none of its encodings are looked for: two or three characters occur in
 * ordinary text too often to hide them everywhere.
 */

export interface Redactor {
  /** The text with every known form of every secret replaced by ***. */
  redact(text: string): string;
  /** A parsed JSON value with every string (keys too) redacted. */
  redactValue(value: unknown): unknown;
}

export const MIN_SECRET_LENGTH = 4;

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

const NOTHING: Redactor = { redact: (text) => text, redactValue: (value) => value };

export function createRedactor(secrets: Iterable<string | null | undefined>): Redactor {
  const unique = [...new Set([...secrets].filter((secret): secret is string => typeof secret === 'string' && secret !== ''))];
  if (unique.length === 0) return NOTHING;
  // Longer secrets first, so that a secret containing another is hidden whole.
  unique.sort((a, b) => b.length - a.length);
  // Compiled on first use: a command that shows nothing from a server never pays for it.
  let pattern: RegExp | undefined;
  const redact = (text: string): string => (text === '' ? text : text.replace((pattern ??= new RegExp(unique.flatMap(secretPatterns).join('|'), 'gu')), MASK));
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
