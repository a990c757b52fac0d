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
 *   text around, stay visible;
 * - its UTF-8 bytes in hex, any case, the bytes side by side (`xxd -p`) or
 *   apart (`aa:bb`, `od -An -tx1`, `xxd`, `hexdump -C`, the offset and the
 *   text column of a dump line between two lines);
 * - any of these forms broken over lines (\n, \r\n, or their JSON escapes):
 *   base64 wrapped at 76 (MIME) or 64 (PEM), `xxd -p` at 60, a value split
 *   anywhere. The match and the line breaks inside it become one ***.
 * Whatever the secrets, the password of a URL's userinfo
 * (`postgres://user:password@host`) is hidden too (hideUrlPasswords).
 *
 * Short secrets: a secret shorter than MIN_SECRET_LENGTH (4) characters is
 * hidden only in its plain form where it stands alone (not inside a word),
 * and none of its encodings are looked for: three characters occur in
 * ordinary text too often to hide them everywhere. A secret shorter than
 * MIN_HIDDEN_LENGTH (3) is not hidden at all: one or two characters ("a",
 * "to", "-1") would turn ordinary words and numbers into ***. Hex is looked
 * for only for a secret of MIN_HEX_BYTES (6) bytes or more: 8 hex digits
 * occur by chance among hashes and ids, 12 practically never.
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

/** Secrets of fewer UTF-8 bytes are not looked for in hex (see above). */
export const MIN_HEX_BYTES = 6;

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

/**
 * What may stand between two bytes in hex: nothing, one or two spaces, colons or dashes; or, where two lines
 * of a dump were joined, the text column of the first (`  |ab..|` of hexdump -C, `  ab..` of xxd) and the
 * offset of the next (od's 0000020, xxd's 00000010:).
 */
const HEX_SEPARATOR = '(?:[ :-]{1,2}|(?: {2}\\|[ -~]{0,16}\\|| {2}[ -~]{1,16})?[0-9a-fA-F]{7,8}:? {1,2})?';

/** The pattern of the secret's bytes in hex (of its first `count` bytes only, with count). */
function hexForm(secret: string, count?: number): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  if (bytes.length < MIN_HEX_BYTES) return [];
  return [[...bytes.subarray(0, count)].map((byte) => hexPattern(byte.toString(16).padStart(2, '0'))).join(HEX_SEPARATOR)];
}

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

/** A line break, or its JSON escape (once or more escaped): what a value broken over lines has inside. */
const LINE_BREAK = /\r\n?|\n|(?:\\+r)?\\+n|\\+r/g;
/** What a text may hold: a form of the main expression (escapes, base64, as written), the hex of a secret. */
interface Look {
  forms: boolean;
  hex: boolean;
}

/**
 * What `text` may hold: no form when it has no escape and no form as written, also with its line breaks
 * taken out (a space may be written + in a form body); no hex when the first three bytes of no secret are there.
 */
function mayHoldTest(secrets: string[]): (text: string) => Look {
  const written = [...new Set(secrets.flatMap(writtenForms))];
  const spaced = secrets.filter((secret) => [...secret].length >= MIN_SECRET_LENGTH && secret.includes(' ')).map(plusAsSpace);
  const hexStarts = secrets.flatMap((secret) => hexForm(secret, 3));
  const hexStart = hexStarts.length > 0 ? new RegExp(hexStarts.join('|')) : undefined;
  const holdsForm = (text: string): boolean => {
    if (text.includes('\\') || text.includes('%') || written.some((form) => text.includes(form))) return true;
    if (spaced.length === 0) return false;
    const spacedText = plusAsSpace(text);
    return spaced.some((secret) => spacedText.includes(secret));
  };
  return (text) => {
    const lines = text.includes('\n') || text.includes('\r');
    const joined = lines ? text.replace(LINE_BREAK, '') : text;
    return { forms: holdsForm(text) || (lines && holdsForm(joined)), hex: hexStart?.test(joined) === true };
  };
}

/** A match that is hex: three bytes first (as HEX_RUN), a byte last. */
const HEX_MATCH = /^[0-9a-fA-F]{2}[ :-]{0,2}[0-9a-fA-F]{2}[ :-]{0,2}[0-9a-fA-F]{2}(?:.*[0-9a-fA-F]{2})?$/s;
/**
 * What follows hex that ends inside a line of xxd or hexdump -C: the line's other bytes, then its text
 * column, which shows the secret's printable bytes (hidden too: the plain secret is not whole there).
 */
const DUMP_LINE_REST = /^((?:[ :-]{1,2}[0-9a-fA-F]{2,4})*)( {2}\|[^\r\n]*\|| {2,}[^\r\n]*)(?=\r?\n|$)/;

/**
 * Each match of `pattern` in `text` becomes one ***. With `joined`, `pattern` is run on the text with its
 * line breaks taken out, so that the forms broken over lines are found; the line breaks inside a match go with it.
 */
function maskMatches(text: string, pattern: RegExp, joined = false): string {
  let view = text;
  // at[i]: where character i of the view is in `text` (none: the same place).
  let at: number[] | undefined;
  if (joined) {
    const breaks = [...text.matchAll(LINE_BREAK)];
    if (breaks.length === 0) return text;
    at = [];
    view = '';
    let from = 0;
    for (const found of [...breaks, undefined]) {
      const to = found ? found.index : text.length;
      view += text.slice(from, to);
      for (let index = from; index < to; index++) at.push(index);
      if (found) from = found.index + found[0].length;
    }
  }
  const place = (index: number): number => (at ? at[index]! : index);
  let shown = '';
  let last = 0;
  for (const match of view.matchAll(pattern)) {
    if (match[0] === '') continue;
    shown += `${text.slice(last, place(match.index))}${MASK}`;
    last = place(match.index + match[0].length - 1) + 1;
    const rest = HEX_MATCH.test(match[0]) ? DUMP_LINE_REST.exec(text.slice(last)) : null;
    if (rest) {
      shown += `${rest[1]}  ${rest[2]!.trimStart().startsWith('|') ? `|${MASK}|` : MASK}`;
      last += rest[0].length;
    }
  }
  return last === 0 ? text : shown + text.slice(last);
}

/**
 * `scheme://user:password@host` (also with JSON-escaped slashes): the password, up to the last @ before the
 * host's path, query or fragment, as a URL parser reads it.
 */
const URL_PASSWORD = /([A-Za-z][A-Za-z0-9+.-]*:(?:\\*\/){2}[^\s/\\?#@:"']*:)([^\s/\\?#"']+)@/g;

/** The text with the password of every URL's userinfo replaced by ***, whoever's it is. */
export function hideUrlPasswords(text: string): string {
  if (!text.includes('@') || !text.includes(':')) return text;
  return text.replace(URL_PASSWORD, (all, head: string, password: string) => (password === MASK ? all : `${head}${MASK}@`));
}

/** A JSON value with every string (keys too) redacted; the value itself when nothing changed (no copy, no new JSON text). */
function redactValueWith(redact: (text: string) => string): (value: unknown) => unknown {
  const redactValue = (value: unknown): unknown => {
    if (typeof value === 'string') return redact(value);
    if (Array.isArray(value)) {
      const items = value.map(redactValue);
      return items.some((item, index) => item !== value[index]) ? items : value;
    }
    if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      const shown = entries.map(([key, item]) => [redact(key), redactValue(item)] as const);
      return shown.some(([key, item], index) => key !== entries[index]![0] || item !== entries[index]![1]) ? Object.fromEntries(shown) : value;
    }
    return value;
  };
  return redactValue;
}

/** Hides only the passwords of URLs: what every redactor does when it knows no secret. */
export const URL_PASSWORDS_ONLY: Redactor = { redact: hideUrlPasswords, redactValue: redactValueWith(hideUrlPasswords) };

export function createRedactor(secrets: Iterable<string | null | undefined>): Redactor {
  const hidden = (secret: string | null | undefined): secret is string => typeof secret === 'string' && [...secret].length >= MIN_HIDDEN_LENGTH;
  const unique = [...new Set([...secrets].filter(hidden))];
  if (unique.length === 0) return URL_PASSWORDS_ONLY;
  // Longer secrets first, so that a secret containing another is hidden whole.
  unique.sort((a, b) => b.length - a.length);
  // No form of a secret is shorter than this (a short secret's plain text; else a base64 piece or the
  // secret itself, one or more UTF-16 units per character): shorter text needs no look.
  const shortest = Math.min(...unique.map((secret) => ([...secret].length < MIN_SECRET_LENGTH ? secret.length : MIN_BASE64_PIECE)));
  const mayHold = mayHoldTest(unique);
  // Compiled on first use (~25-70 ms for the many forms): a command that shows nothing that may hold a secret never pays for it.
  // Hex has its own expression: its separators make it slow, and only a text with a secret's first bytes in hex needs it.
  let pattern: RegExp | undefined;
  let hexExpression: RegExp | undefined;
  const mask = (text: string, look: Look, joined = false): string => {
    let shown = text;
    if (look.forms) shown = maskMatches(shown, (pattern ??= new RegExp(unique.flatMap(secretPatterns).join('|'), 'gu')), joined);
    if (look.hex) shown = maskMatches(shown, (hexExpression ??= new RegExp(unique.flatMap((secret) => hexForm(secret)).join('|'), 'g')), joined);
    return shown;
  };
  const hideSecrets = (text: string): string => {
    if (text.length < shortest) return text;
    const look = mayHold(text);
    if (!look.forms && !look.hex) return text;
    const shown = mask(text, look);
    // The lines joined (maskMatches returns at once when there is none) for what is left that may hold a form.
    return mask(shown, mayHold(shown), true);
  };
  const redact = (text: string): string => hideUrlPasswords(hideSecrets(text));
  return { redact, redactValue: redactValueWith(redact) };
}
