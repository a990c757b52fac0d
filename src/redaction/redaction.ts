// The forms hidden, the limits for short secrets and the cost of each look: docs/security.md ("Secrets").

export interface Redactor {
  redact(text: string): string;
  redactValue(value: unknown): unknown;
}

export const MIN_SECRET_LENGTH = 4;

export const MIN_HIDDEN_LENGTH = 3;

export const MIN_HEX_BYTES = 6;

const MIN_BASE64_PIECE = 4;

const MASK = '***';

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function hexPattern(hex: string): string {
  return [...hex]
    .map((digit) => (/[a-f]/i.test(digit) ? `[${digit.toLowerCase()}${digit.toUpperCase()}]` : digit))
    .join('');
}

const JSON_SHORT_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  '\b': 'b',
  '\f': 'f',
  '\n': 'n',
  '\r': 'r',
  '\t': 't',
};

function characterPattern(char: string): string {
  const forms = [escapeRegExp(char)];
  // \uXXXX per UTF-16 unit (a surrogate pair is two escapes); one or more backslashes (escaped again).
  const units = [...Array(char.length).keys()].map(
    (index) => `\\\\+u${hexPattern(char.charCodeAt(index).toString(16).padStart(4, '0'))}`,
  );
  forms.push(units.join(''));
  const short = JSON_SHORT_ESCAPES[char];
  if (short !== undefined) forms.push(`\\\\+${escapeRegExp(short)}`);
  const bytes = [...Buffer.from(char, 'utf8')].map((byte) => `%${hexPattern(byte.toString(16).padStart(2, '0'))}`);
  forms.push(bytes.join(''));
  if (char === ' ') forms.push('\\+');
  return forms.length === 1 ? forms[0]! : `(?:${forms.join('|')})`;
}

function textPattern(text: string): string {
  return [...text].map(characterPattern).join('');
}

const urlSafe = (base64: string): string => base64.replace(/\+/g, '-').replace(/\//g, '_');

// Unpadded base64 of the secret; and, for each of 3 offsets in a longer text, the characters set by its bytes alone.
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

// Between hex bytes: nothing, 1-2 of space, colon, dash; or, across joined dump lines, a text column and an offset.
const HEX_SEPARATOR = '(?:[ :-]{1,2}|(?: {2}\\|[ -~]{0,16}\\|| {2}[ -~]{1,16})?[0-9a-fA-F]{7,8}:? {1,2})?';

function hexForm(secret: string, count?: number): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  if (bytes.length < MIN_HEX_BYTES) return [];
  return [
    [...bytes.subarray(0, count)].map((byte) => hexPattern(byte.toString(16).padStart(2, '0'))).join(HEX_SEPARATOR),
  ];
}

function secretPatterns(secret: string): string[] {
  if ([...secret].length < MIN_SECRET_LENGTH) return [`(?<![\\p{L}\\p{N}_])${escapeRegExp(secret)}(?![\\p{L}\\p{N}_])`];
  const { whole, pieces } = base64Forms(secret);
  // The whole encodings come before the pieces, so that a secret encoded alone is hidden with its padding.
  return [textPattern(secret), ...whole.map((form) => `${textPattern(form)}${PADDING}`), ...pieces.map(textPattern)];
}

function writtenForms(secret: string): string[] {
  if ([...secret].length < MIN_SECRET_LENGTH) return [secret];
  const { whole, pieces } = base64Forms(secret);
  return [secret, ...whole, ...pieces];
}

const plusAsSpace = (text: string): string => text.replace(/\+/g, ' ');

const LINE_BREAK = /\r\n?|\n|(?:\\+r)?\\+n|\\+r/g;
interface Look {
  forms: boolean;
  hex: boolean;
}

function mayHoldTest(secrets: string[]): (text: string) => Look {
  const written = [...new Set(secrets.flatMap(writtenForms))];
  const spaced = secrets
    .filter((secret) => [...secret].length >= MIN_SECRET_LENGTH && secret.includes(' '))
    .map(plusAsSpace);
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

const HEX_MATCH = /^[0-9a-fA-F]{2}[ :-]{0,2}[0-9a-fA-F]{2}[ :-]{0,2}[0-9a-fA-F]{2}(?:.*[0-9a-fA-F]{2})?$/s;
// The text column of an xxd or hexdump -C line shows the secret's printable bytes, which no plain form matches whole.
const DUMP_LINE_REST = /^((?:[ :-]{1,2}[0-9a-fA-F]{2,4})*)( {2}\|[^\r\n]*\|| {2,}[^\r\n]*)(?=\r?\n|$)/;

// With `joined`, the pattern runs on the text without its line breaks, so a form broken over lines is found.
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

const URL_PASSWORD = /([A-Za-z][A-Za-z0-9+.-]*:(?:\\*\/){2}[^\s/\\?#@:"']*:)([^\s/\\?#"']+)@/g;

export function hideUrlPasswords(text: string): string {
  if (!text.includes('@') || !text.includes(':')) return text;
  return text.replace(URL_PASSWORD, (all, head: string, password: string) =>
    password === MASK ? all : `${head}${MASK}@`,
  );
}

/** Returns the value itself when nothing changed: no copy, no new JSON text. */
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
      return shown.some(([key, item], index) => key !== entries[index]![0] || item !== entries[index]![1])
        ? Object.fromEntries(shown)
        : value;
    }
    return value;
  };
  return redactValue;
}

export const URL_PASSWORDS_ONLY: Redactor = {
  redact: hideUrlPasswords,
  redactValue: redactValueWith(hideUrlPasswords),
};

export function createRedactor(secrets: Iterable<string | null | undefined>): Redactor {
  const hidden = (secret: string | null | undefined): secret is string =>
    typeof secret === 'string' && [...secret].length >= MIN_HIDDEN_LENGTH;
  const unique = [...new Set([...secrets].filter(hidden))];
  if (unique.length === 0) return URL_PASSWORDS_ONLY;
  // Longer secrets first, so that a secret containing another is hidden whole.
  unique.sort((a, b) => b.length - a.length);
  // No form of a secret is shorter than this, so shorter text needs no look.
  const shortest = Math.min(
    ...unique.map((secret) => ([...secret].length < MIN_SECRET_LENGTH ? secret.length : MIN_BASE64_PIECE)),
  );
  const mayHold = mayHoldTest(unique);
  // Compiled on first use (~25-70 ms); hex apart, as its separators make it slow and few texts need it.
  let pattern: RegExp | undefined;
  let hexExpression: RegExp | undefined;
  const mask = (text: string, look: Look, joined = false): string => {
    let shown = text;
    if (look.forms)
      shown = maskMatches(shown, (pattern ??= new RegExp(unique.flatMap(secretPatterns).join('|'), 'gu')), joined);
    if (look.hex)
      shown = maskMatches(
        shown,
        (hexExpression ??= new RegExp(unique.flatMap((secret) => hexForm(secret)).join('|'), 'g')),
        joined,
      );
    return shown;
  };
  const hideSecrets = (text: string): string => {
    if (text.length < shortest) return text;
    const look = mayHold(text);
    if (!look.forms && !look.hex) return text;
    const shown = mask(text, look);
    return mask(shown, mayHold(shown), true);
  };
  const redact = (text: string): string => hideUrlPasswords(hideSecrets(text));
  return { redact, redactValue: redactValueWith(redact) };
}
