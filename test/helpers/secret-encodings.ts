/**
 * The encodings a server or a child process may use when it echoes a secret
 * back, and a detector that looks for a secret in output by decoding (not by
 * the redactor's own patterns): JSON escapes undone, percent-encoding
 * decoded, every base64-looking run decoded at each start offset; and the
 * dumps and decorations of secret-decorations.ts.
 */
import {
  base32Readings,
  DECORATED_ENCODINGS,
  referencesDecoded,
  spacedReading,
  swappedWordReadings,
  undecorated,
  utf16Readings,
} from './secret-decorations.js';

// Each encoder stands alone (no helper): the tests write them into the scripts of the wrapped commands.
// A short secret's base64 fits on one line, but wrapping at 76 or 64 may fall anywhere in it: the line break is put inside.
/** Text wrapped every `width` characters (base64 -w 76 for MIME, openssl base64 at 64 for PEM, xxd -p at 60). */
export const wrap = (text: string, width: number, lineBreak = '\n'): string =>
  (text.match(new RegExp(`.{1,${width}}`, 'gs')) ?? []).join(lineBreak);

/**
 * How an echo writes a value inside a JSON string (the raw text between the quotes; a line break in it is
 * written \n in JSON: see inJson).
 */
export const ENCODINGS: Record<string, (value: string) => string> = {
  plain: (value) => JSON.stringify(value).slice(1, -1),
  'json \\/': (value) => JSON.stringify(value).slice(1, -1).replace(/\//g, '\\/'),
  'json \\u lower': (value) =>
    [...value].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  'json \\u upper': (value) =>
    [...value].map((char) => `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join(''),
  'base64 padded': (value) => Buffer.from(value).toString('base64'),
  'base64 unpadded': (value) => Buffer.from(value).toString('base64').replace(/=+$/, ''),
  base64url: (value) => Buffer.from(value).toString('base64url'),
  'base64url padded': (value) => Buffer.from(value).toString('base64').replace(/\+/g, '-').replace(/\//g, '_'),
  '%xx lower': (value) => encodeURIComponent(value).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
  '%XX upper': (value) => encodeURIComponent(value),
  'hex lower (xxd -p)': (value) => Buffer.from(value).toString('hex'),
  'hex colon upper': (value) =>
    [...Buffer.from(value)]
      .map((byte) => byte.toString(16).padStart(2, '0'))
      .join(':')
      .toUpperCase(),
  // The first line's leading space stands after "name:" in an echo line.
  'od -An -tx1 (16 a line)': (value) =>
    [...Buffer.from(value)]
      .map((byte, index) => `${index === 0 ? '' : index % 16 === 0 ? '\n ' : ' '}${byte.toString(16).padStart(2, '0')}`)
      .join(''),
  'base64 over lines (CRLF)': (value) =>
    Buffer.from(value)
      .toString('base64')
      .replace(/^(.{8})/s, '$1\r\n'),
  'split by a line break': (value) => `${value.slice(0, value.length >> 1)}\n${value.slice(value.length >> 1)}`,
};

export const ENCODING_NAMES = Object.keys(ENCODINGS);

/**
 * The other forms the redactor knows (src/redaction/redaction.ts): JSON escaped twice (a JSON text inside a
 * JSON string), and a form body (+ for a space). With ENCODINGS, every whole form of a secret.
 */
export const ALL_ENCODINGS: Record<string, (value: string) => string> = {
  ...ENCODINGS,
  'json \\u twice': (value) =>
    [...value].map((char) => `\\\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  'form + for space': (value) => encodeURIComponent(value).replace(/%20/g, '+'),
  'hex upper': (value) => Buffer.from(value).toString('hex').toUpperCase(),
  'hex spaced (od -An -tx1 -w64)': (value) =>
    [...Buffer.from(value)].map((byte) => byte.toString(16).padStart(2, '0')).join(' '),
  'base64 over lines (LF, PEM)': (value) =>
    Buffer.from(value)
      .toString('base64')
      .replace(/(.{8})$/s, '\n$1'),
  'split by CRLF': (value) => `${value.slice(0, 3)}\r\n${value.slice(3)}`,
  ...DECORATED_ENCODINGS,
};

/** A form as written between the quotes of a JSON string: its line breaks and other control characters escaped. */
export const inJson = (form: string): string =>
  form
    .replace(/\r/g, '\\r')
    .replace(/\n/g, '\\n')
    .replace(/[\u0000-\u001f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A JSON text holding `value` once in every encoding of ALL_ENCODINGS, in their order: {"received":["<encoded>",...]}. */
export function everyEncodingBody(value: string): string {
  return `{"received":[${Object.values(ALL_ENCODINGS)
    .map((encode) => `"${inJson(encode(value))}"`)
    .join(',')}]}`;
}

/** everyEncodingBody with every value hidden, as the redactor must show it. */
export const EVERY_ENCODING_HIDDEN = JSON.stringify({ received: Object.keys(ALL_ENCODINGS).map(() => '***') });

/** A JSON text whose one member holds each value, encoded; no error/message/detail member. */
export function echoBody(encoding: string, values: string[]): string {
  const encode = ENCODINGS[encoding]!;
  return `{"received":[${values.map((value) => `"${inJson(encode(value))}"`).join(',')}]}`;
}

const unescapeJson = (text: string): string =>
  text
    .replace(/\\+u([0-9a-fA-F]{4})/g, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\+([/"\\])/g, '$1');

/** Runs of %XX decoded as UTF-8 bytes. */
const percentDecode = (text: string): string =>
  text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'));

/** A form body's + read as a space. */
const plusAsSpace = (text: string): string => text.replace(/\+/g, ' ');

/** Every base64-looking run decoded (as UTF-8) at each start offset; Node's base64 decoder reads both alphabets. */
const base64Readings = (text: string): string[] =>
  [...text.matchAll(/[A-Za-z0-9+/_-]{6,}={0,2}/g)].flatMap(([run]) =>
    [0, 1, 2, 3].map((start) => Buffer.from(run.slice(start), 'base64').toString('utf8')),
  );

/** Runs of hex bytes (side by side or apart by spaces, colons or dashes), decoded. */
function hexDecoded(text: string): string[] {
  return [...text.matchAll(/[0-9a-fA-F]{2}(?:[ :-]{0,2}[0-9a-fA-F]{2})+/g)].flatMap(([run]) => {
    const digits = run.replace(/[ :-]/g, '');
    // At both nibble offsets: a run may start with a digit of something else.
    return [Buffer.from(digits, 'hex').toString('latin1'), Buffer.from(digits.slice(1), 'hex').toString('latin1')];
  });
}

/** The text with its line breaks (and their JSON escapes) taken out. */
const joinLines = (text: string): string => text.replace(/\r|\n|\\+[rn]/g, '');

/** What a text reads as, by each decoder: worked out once a text, whatever the secrets looked for. */
interface Readings {
  /** As is, JSON-escaped, percent-encoded (+ as a space too), decorated: a secret may be there as is or in UTF-16. */
  texts: string[];
  /** base64 of these decoded (as UTF-8). */
  base64: string[];
  /** Hex of these decoded, as bytes (latin1): a secret may be there in UTF-8 or UTF-16 (LE, BE). */
  hex: string[];
  /** base32 and od -x words of these decoded, as bytes (latin1): a secret is there in UTF-8. */
  bytes: string[];
  /** Characters one a token, joined (spacedReading). */
  spaced: string[];
}

function readingsOf(text: string): Readings {
  const candidates = new Set<string>();
  // The same reading is looked at once (most texts are unchanged by most decoders).
  for (const whole of new Set([text, joinLines(text)])) {
    const unescaped = unescapeJson(whole);
    for (const candidate of [
      whole,
      unescaped,
      percentDecode(whole),
      percentDecode(unescaped),
      percentDecode(plusAsSpace(unescaped)),
      undecorated(unescaped),
      referencesDecoded(whole),
      referencesDecoded(unescaped),
    ])
      candidates.add(candidate);
  }
  const all = [...candidates];
  return {
    texts: all,
    base64: all.flatMap(base64Readings),
    hex: all.flatMap(hexDecoded),
    bytes: all.flatMap((candidate) => [...base32Readings(candidate), ...swappedWordReadings(candidate)]),
    spaced: all.map(spacedReading),
  };
}

function readIn(readings: Readings, secret: string): boolean {
  const utf8 = Buffer.from(secret).toString('latin1');
  const little = Buffer.from(secret, 'utf16le');
  const hexForms = [utf8, little.toString('latin1'), Buffer.from(little).swap16().toString('latin1')];
  const spaced = Buffer.from(secret.replace(/ /g, '')).toString('latin1');
  const textForms = [secret, ...utf16Readings(secret)];
  return (
    readings.texts.some((text) => textForms.some((form) => text.includes(form))) ||
    readings.base64.some((text) => text.includes(secret)) ||
    readings.hex.some((bytes) => hexForms.some((form) => bytes.includes(form))) ||
    readings.bytes.some((bytes) => bytes.includes(utf8)) ||
    readings.spaced.some((joined) => joined.includes(spaced))
  );
}

/**
 * Whether `secret` can be read back from `text`, also with its line breaks taken out: as is, JSON-escaped,
 * percent-encoded (+ as a space too), in base64 (any offset, either alphabet), or in hex (any case, apart or not).
 */
export function reveals(text: string, secret: string): boolean {
  return readIn(readingsOf(text), secret);
}

/** The secrets among `secrets` that `text` reveals. */
export function revealed(text: string, secrets: string[]): string[] {
  const readings = readingsOf(text);
  return secrets.filter((secret) => readIn(readings, secret));
}
