// The forms of one secret the redactor looks for, as regular-expression source; the list and its limits are
// in docs/security.md ("The forms hidden"). Byte forms are of the UTF-8 bytes unless they say UTF-16. Forms
// that decode character by character (\xNN, HTML references, UTF-16's NULs) are undone in the view instead
// (text-view.ts), which keeps these expressions small.

import { LINE_BREAK } from './text-view.js';

export const MIN_SECRET_LENGTH = 4;

export const MIN_HIDDEN_LENGTH = 3;

export const MIN_HEX_BYTES = 6;

export const MIN_BASE64_PIECE = 4;

// 5 base32 characters carry 25 bits, about what 4 base64 characters (24) do.
const MIN_BASE32_PIECE = 5;

export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const hex2 = (byte: number): string => byte.toString(16).padStart(2, '0');

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

/** One character as written or escaped: JSON (\uXXXX, \/, one or more backslashes), percent-encoded, `+` for a space. */
export function characterPattern(char: string): string {
  const forms = [escapeRegExp(char)];
  // \uXXXX per UTF-16 unit (a surrogate pair is two escapes); one or more backslashes (escaped again).
  const units = [...Array(char.length).keys()].map(
    (index) => `\\\\+u${hexPattern(char.charCodeAt(index).toString(16).padStart(4, '0'))}`,
  );
  forms.push(units.join(''));
  const short = JSON_SHORT_ESCAPES[char];
  if (short !== undefined) forms.push(`\\\\+${escapeRegExp(short)}`);
  forms.push([...Buffer.from(char, 'utf8')].map((byte) => `%${hexPattern(hex2(byte))}`).join(''));
  if (char === ' ') forms.push('\\+');
  return forms.length === 1 ? forms[0]! : `(?:${forms.join('|')})`;
}

export const textPattern = (text: string): string => [...text].map(characterPattern).join('');

// The view drops an escape with all the backslashes before it (a NUL's \u0000, an escaped line break), which may
// be the secret's own backslash escaped: there a backslash of the secret may be missing.
export const secretPattern = (secret: string): string =>
  [...secret].map((char) => (char === '\\' ? `${characterPattern(char)}?` : characterPattern(char))).join('');

// No encoder escapes a letter or a digit of base64 or base32 (JSON and percent-encoding leave them as they are),
// so only their other characters (+ / = - _) get their escapes: it keeps the expression small, and fast.
const encodedPattern = (text: string): string =>
  [...text].map((char) => (/[A-Za-z0-9]/.test(char) ? char : characterPattern(char))).join('');

const urlSafe = (base64: string): string => base64.replaceAll('+', '-').replaceAll('/', '_');

const ALPHABETS = {
  5: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567',
  6: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
} as const;

/** RFC 4648 base32 (5 bits a character) or base64 (6), without padding (as `base32` and `base64` print them, before
 * their `=`). One loop for both: Node has no base32, and the Buffer calls of its base64 cost ~0.2 ms on their first
 * use, which is in every command's first redaction (tested against Buffer's base64 in test/redaction-forms.test.ts). */
export function encodeBits(bytes: Uint8Array, bitsPer: 5 | 6): string {
  const alphabet = ALPHABETS[bitsPer];
  const mask = (1 << bitsPer) - 1;
  let out = '';
  let value = 0;
  let bits = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    for (; bits >= bitsPer; bits -= bitsPer) out += alphabet[(value >> (bits - bitsPer)) & mask];
  }
  return bits > 0 ? out + alphabet[(value << (bitsPer - bits)) & mask] : out;
}

/** The whole encoding of the secret, unpadded; and, at each byte offset in a longer text, the characters set by the
 * secret's bytes alone (a character of `bitsPer` bits holds bits bitsPer·i to bitsPer·i + bitsPer - 1). */
function encodedForms(bytes: Uint8Array, bitsPer: 5 | 6, minPiece: number): { whole: string; pieces: string[] } {
  const offsets = bitsPer === 6 ? 3 : 5;
  // The secret after `offsets` zero bytes: the text before it at each offset is a view of the same array.
  const padded = new Uint8Array(offsets + bytes.length);
  padded.set(bytes, offsets);
  const pieces = new Set<string>();
  for (let offset = 0; offset < offsets; offset++) {
    const encoded = encodeBits(padded.subarray(offsets - offset), bitsPer);
    const first = Math.ceil((8 * offset) / bitsPer);
    const end = Math.floor((8 * (offset + bytes.length)) / bitsPer);
    const piece = encoded.slice(first, end);
    if (piece.length >= minPiece) pieces.add(piece);
  }
  return { whole: encodeBits(bytes, bitsPer), pieces: [...pieces] };
}

/** Standard and URL-safe base64, and base32: wholes first, so that a secret encoded alone is hidden with its padding. */
export function encodings(secret: string): { base64: string[]; base32: string; pieces: string[] } {
  const bytes = Buffer.from(secret, 'utf8');
  const b64 = encodedForms(bytes, 6, MIN_BASE64_PIECE);
  const b32 = encodedForms(bytes, 5, MIN_BASE32_PIECE);
  return {
    base64: [...new Set([b64.whole, urlSafe(b64.whole)])],
    base32: b32.whole,
    pieces: [...new Set([...b64.pieces.flatMap((piece) => [piece, urlSafe(piece)]), ...b32.pieces])],
  };
}

const padding = (most: number): string => `(?:${characterPattern('=')}){0,${most}}`;

/** The secret's UTF-16 code units as bytes, as Buffer's 'utf16le' (and swap16) write them, without their first-call cost. */
function utf16Bytes(secret: string, bigEndian: boolean): Uint8Array {
  const bytes = new Uint8Array(2 * secret.length);
  const [high, low] = bigEndian ? [0, 1] : [1, 0];
  for (let index = 0; index < secret.length; index++) {
    const unit = secret.charCodeAt(index);
    bytes[2 * index + low] = unit & 0xff;
    bytes[2 * index + high] = unit >> 8;
  }
  return bytes;
}

/** The secret in UTF-16 (LE and BE) read as UTF-8, as the view shows it (NULs out): the secret itself when it is ASCII;
 * otherwise what is left of it, the bytes that are not UTF-8 as replacement characters. */
export const utf16Readings = (secret: string): string[] =>
  isPlainAscii(secret)
    ? [secret, secret]
    : [false, true].map((bigEndian) => Buffer.from(utf16Bytes(secret, bigEndian)).toString('utf8').replace(/\0/g, ''));

/** U+0001 to U+007F only: each is one byte beside a NUL in UTF-16, so both readings are the secret. Most secrets are
 * such text, and the buffers above cost ~0.15 ms the first time (every command's first redaction). */
function isPlainAscii(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0 || code > 0x7f) return false;
  }
  return true;
}

/** Every form matched in the text as it is (or its normalised view): one alternation for all secrets. */
export function secretPatterns(secret: string): string[] {
  if ([...secret].length < MIN_SECRET_LENGTH) return [`(?<![\\p{L}\\p{N}_])${escapeRegExp(secret)}(?![\\p{L}\\p{N}_])`];
  const { base64: whole64, base32: whole32, pieces } = encodings(secret);
  return [
    secretPattern(secret),
    ...[secret.replace(LINE_BREAK, '')].filter((joined) => joined !== secret && joined !== '').map(secretPattern),
    ...whole64.map((form) => `${encodedPattern(form)}${padding(2)}`),
    `${encodedPattern(whole32)}${padding(6)}`,
    ...pieces.map(encodedPattern),
  ];
}

/** The secret as a view may show it: without its backslashes (secretPattern), and, in the view without line breaks,
 * without what reads as one (a real line feed, or `\n` written out in a password). */
export const bare = (secret: string): string[] => {
  const joined = secret.replace(LINE_BREAK, '');
  const variants = [secret.replace(/\\/g, ''), joined, joined.replace(/\\/g, '')];
  return [...new Set(variants)].filter((variant) => variant !== secret && variant !== '');
};

/** What a text holds, as written, when it holds a form with no escape in it. */
export function writtenForms(secret: string): string[] {
  if ([...secret].length < MIN_SECRET_LENGTH) return [secret];
  const { base64: whole64, base32: whole32, pieces } = encodings(secret);
  return [secret, ...bare(secret), ...whole64, whole32, ...pieces];
}

// Between hex bytes: nothing, 1-2 of space, colon, dash; or, across joined dump lines, a text column and an offset.
const HEX_SEPARATOR = '(?:[ :-]{1,2}|(?: {2}\\|[ -~]{0,16}\\|| {2}[ -~]{1,16})?[0-9a-fA-F]{7,8}:? {1,2})?';
// Between 2-byte words (od -x, hexdump): 1 to 4 spaces, after an offset across joined lines.
const WORD_SEPARATOR = '(?:[0-9a-fA-F]{6,8})? {1,4}';
const ANY_BYTE = '[0-9a-fA-F]{2}';

const byteHex = (byte: number): string => hexPattern(hex2(byte));

/** The bytes as 2-byte little-endian words, each printed high byte first (od -x, hexdump), the secret starting at
 * either byte of a word; a byte of the word outside the secret is any byte. `words` cuts it short (a prefilter). */
function swappedWords(bytes: Buffer, words?: number): string[] {
  return [0, 1].map((offset) => {
    const printed: string[] = [];
    for (let low = -offset; low < bytes.length; low += 2) {
      const lowByte = low >= 0 ? byteHex(bytes[low]!) : ANY_BYTE;
      const highByte = low + 1 < bytes.length ? byteHex(bytes[low + 1]!) : ANY_BYTE;
      printed.push(`${highByte}${lowByte}`);
    }
    return printed.slice(0, words).join(WORD_SEPARATOR);
  });
}

// od -c: each byte in a field of 4, right-aligned; C escapes for some controls, 3 octal digits for other bytes.
const OD_ESCAPES: Record<number, string> = { 0: '0', 7: 'a', 8: 'b', 9: 't', 10: 'n', 11: 'v', 12: 'f', 13: 'r' };
const SPACED_SEPARATOR = '(?:[0-9a-fA-F]{6,8})? {1,3}';

function odField(byte: number): string {
  if (byte === 0x20) return ' {0,4}';
  if (byte > 0x20 && byte < 0x7f) {
    const char = String.fromCharCode(byte);
    if (char === '\\') return '\\\\*';
    return char === '"' ? `\\\\*"` : escapeRegExp(char);
  }
  const escape = OD_ESCAPES[byte];
  return escape === undefined ? byte.toString(8).padStart(3, '0') : `\\\\+${escape}`;
}

/** Characters apart by 1 to 3 spaces (spaced out; od -c, whose fields are its bytes); `count` cuts it short. */
function spacedCharacters(secret: string, count?: number): string {
  return [...secret]
    .slice(0, count)
    .map((char) => {
      const fields = [...Buffer.from(char, 'utf8')].map(odField).join(SPACED_SEPARATOR);
      return char.length === 1 && char.charCodeAt(0) < 0x80 ? fields : `(?:${escapeRegExp(char)}|${fields})`;
    })
    .join(SPACED_SEPARATOR);
}

export const DUMP_KINDS = ['hex', 'utf16', 'words', 'spaced'] as const;
export type DumpKind = (typeof DUMP_KINDS)[number];

/** The dump forms (no escapes, apart from od's) by kind: hex of the UTF-8 bytes, hex of the UTF-16 bytes, 2-byte words,
 * spaced characters. `start` gives only their first bytes: a cheap test of whether a text may hold one (UTF-16's from
 * its first byte that is not a NUL of an ASCII character: any run of zeros would pass otherwise). */
export function dumpPatterns(secret: string, start = false): Record<DumpKind, string[]> | undefined {
  const bytes = Buffer.from(secret, 'utf8');
  if (bytes.length < MIN_HEX_BYTES) return undefined;
  const hex = (of: Uint8Array): string => [...of].map(byteHex).join(HEX_SEPARATOR);
  const little = utf16Bytes(secret, false);
  const big = utf16Bytes(secret, true);
  if (!start)
    return {
      hex: [hex(bytes)],
      utf16: [hex(little), hex(big)],
      words: swappedWords(bytes),
      spaced: [spacedCharacters(secret)],
    };
  const bigStart = big[0] === 0 ? 1 : 0;
  return {
    hex: [hex(bytes.subarray(0, 3))],
    utf16: [...new Set([hex(little.subarray(0, 5)), hex(big.subarray(bigStart, bigStart + 5))])],
    words: swappedWords(bytes, 2),
    spaced: [spacedCharacters(secret, 3)],
  };
}

/** A look for one dump start: the strings a text holds whenever it holds that start (hex pairs in lower case). */
export interface DumpStartNeeds {
  kind: DumpKind;
  lowerCase: string[];
  exact: string[];
}

// od -c's field of a printable character is the character itself, after at least one space of the separator.
const spacedNeed = (char: string): string[] => (/^[!#-[\]-~]$/.test(char) ? [` ${char}`] : []);

/** What each of dumpPatterns(secret, true)'s starts needs, as plain strings: far cheaper to look for than the starts'
 * expressions, whose separators make them slow to compile and to run. Tested against them in
 * test/redaction-forms.test.ts. */
export function dumpStartNeeds(secret: string): DumpStartNeeds[] {
  const bytes = Buffer.from(secret, 'utf8');
  if (bytes.length < MIN_HEX_BYTES) return [];
  const pairs = (of: Uint8Array): string[] => [...of].map(hex2);
  const little = utf16Bytes(secret, false);
  const big = utf16Bytes(secret, true);
  const bigStart = big[0] === 0 ? 1 : 0;
  const [b0, b1, b2, b3] = pairs(bytes.subarray(0, 4)) as [string, string, string, string];
  const chars = [...secret];
  return [
    { kind: 'hex', lowerCase: pairs(bytes.subarray(0, 3)), exact: [] },
    { kind: 'utf16', lowerCase: pairs(little.subarray(0, 5)), exact: [] },
    { kind: 'utf16', lowerCase: pairs(big.subarray(bigStart, bigStart + 5)), exact: [] },
    { kind: 'words', lowerCase: [b1 + b0, b3 + b2], exact: [] },
    { kind: 'words', lowerCase: [b0, b2 + b1], exact: [] },
    { kind: 'spaced', lowerCase: [], exact: [...spacedNeed(chars[1]!), ...spacedNeed(chars[2] ?? '')] },
  ];
}
