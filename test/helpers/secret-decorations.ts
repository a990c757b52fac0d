/**
 * Dumps and decorations of a secret that ordinary tools print (issue 38.5), and decoders that read a secret back
 * from them without the redactor's own patterns: terminal codes, zero-width and NULs taken out and NFKC applied,
 * \xNN and HTML references decoded, base32 decoded at each offset, od -x words swapped back, od -c and spaced
 * characters joined. secret-encodings.ts adds the encoders to ALL_ENCODINGS and the decoders to reveals().
 */

// Each encoder stands alone (no helper): redaction-sources.test.ts writes them into the script of a wrapped command.
// Each gives the text as a tool prints it, valid between the quotes of a JSON string once inJson has escaped its
// control characters (a backslash or a quote od -c prints is escaped too; the secrets of those tests have none).
export const DECORATED_ENCODINGS: Record<string, (value: string) => string> = {
  'od -x (2-byte words, bytes swapped)': (value) => {
    const bytes = [...Buffer.from(value)];
    if (bytes.length % 2 === 1) bytes.push(0);
    const words: string[] = [];
    for (let at = 0; at < bytes.length; at += 2)
      words.push((bytes[at + 1]! * 256 + bytes[at]!).toString(16).padStart(4, '0'));
    return words.map((word, index) => `${index === 0 ? '' : index % 8 === 0 ? '\n ' : ' '}${word}`).join('');
  },
  'od -c (characters in fields of 4)': (value) => {
    const escapes: Record<number, string> = {
      0: '\\0',
      7: '\\a',
      8: '\\b',
      9: '\\t',
      10: '\\n',
      11: '\\v',
      12: '\\f',
      13: '\\r',
    };
    return [...Buffer.from(value)]
      .map((byte, index) => {
        const shown =
          byte >= 32 && byte < 127 ? String.fromCharCode(byte) : (escapes[byte] ?? byte.toString(8).padStart(3, '0'));
        return `${index > 0 && index % 16 === 0 ? '\n' : ''}${shown.padStart(4)}`;
      })
      .join('')
      .replace(/^ +/, '')
      .replace(/[\\"]/g, '\\$&');
  },
  'spaced out (a space between characters)': (value) => JSON.stringify([...value].join(' ')).slice(1, -1),
  '\\xNN (Python bytes)': (value) =>
    [...Buffer.from(value)].map((byte) => `\\\\x${byte.toString(16).padStart(2, '0')}`).join(''),
  '\\xNN upper': (value) =>
    [...Buffer.from(value)].map((byte) => `\\\\x${byte.toString(16).padStart(2, '0').toUpperCase()}`).join(''),
  'base32 (RFC 4648)': (value) => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
    const bits = [...Buffer.from(value)].map((byte) => byte.toString(2).padStart(8, '0')).join('');
    let out = '';
    for (let at = 0; at < bits.length; at += 5) out += alphabet[parseInt(bits.slice(at, at + 5).padEnd(5, '0'), 2)];
    return out.padEnd(Math.ceil(out.length / 8) * 8, '=');
  },
  'HTML &#decimal;': (value) => [...value].map((char) => `&#${char.codePointAt(0)};`).join(''),
  'HTML &#xHEX;': (value) =>
    [...value].map((char) => `&#x${char.codePointAt(0)!.toString(16).toUpperCase()};`).join(''),
  // Real NULs (inJson escapes them for a JSON body): what a job that writes UTF-16 puts on stderr.
  'UTF-16LE': (value) => Buffer.from(value, 'utf16le').toString('utf8').replace(/[\\"]/g, '\\$&'),
  'UTF-16BE': (value) => Buffer.from(value, 'utf16le').swap16().toString('utf8').replace(/[\\"]/g, '\\$&'),
  'UTF-16LE hex': (value) => Buffer.from(value, 'utf16le').toString('hex'),
  'ANSI colour inside (grep --color)': (value) => {
    const [a, b] = [Math.floor(value.length / 3), Math.floor((2 * value.length) / 3)];
    const [head, middle, tail] = [value.slice(0, a), value.slice(a, b), value.slice(b)].map((part) =>
      JSON.stringify(part).slice(1, -1),
    );
    return `${head}\u001b[01;31m\u001b[K${middle}\u001b[m\u001b[K${tail}`;
  },
  'zero-width space inside': (value) => {
    const half = Math.floor(value.length / 2);
    return JSON.stringify(`${value.slice(0, half)}\u200b${value.slice(half)}`).slice(1, -1);
  },
  'full-width': (value) =>
    JSON.stringify(
      [...value]
        .map((char) => {
          const point = char.codePointAt(0)!;
          if (point === 0x20) return '\u3000';
          return point > 0x20 && point < 0x7f ? String.fromCodePoint(point + 0xfee0) : char;
        })
        .join(''),
    ).slice(1, -1),
  'full-width, JSON-escaped (ensure_ascii)': (value) =>
    [...value]
      .map((char) => {
        const point = char.codePointAt(0)!;
        const wide = point === 0x20 ? 0x3000 : point > 0x20 && point < 0x7f ? point + 0xfee0 : point;
        return wide < 0x80 ? JSON.stringify(char).slice(1, -1) : `\\u${wide.toString(16).padStart(4, '0')}`;
      })
      .join(''),
};

const TERMINAL = /(?:\x1b|\\+(?:u001[bB]|x1[bB]|033|e)|\^\[)\[[0-9;]*[mK]/g;

/** The text as a terminal or a reader sees it: colour codes, zero-width characters and NULs out, NFKC. */
export const undecorated = (text: string): string =>
  text
    .replace(TERMINAL, '')
    .replace(/\\+u0000|\\+x00|\0/g, '')
    .replace(/\p{Cf}/gu, '')
    .normalize('NFKC');

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** HTML references and \xNN escapes (as UTF-8 bytes) decoded. */
export const referencesDecoded = (text: string): string =>
  text
    .replace(
      /&#(\d+);|&#[xX]([0-9a-fA-F]+);|&(amp|lt|gt|quot|apos);/g,
      (_all, dec?: string, hex?: string, name?: string) =>
        name ? NAMED[name]! : String.fromCodePoint(dec ? Number(dec) : parseInt(hex!, 16)),
    )
    .replace(/(?:\\+x[0-9a-fA-F]{2})+/g, (run) => Buffer.from(run.replace(/\\+x/g, ''), 'hex').toString('utf8'));

/** Each run of base32 in the text decoded from each of its first 8 characters, as bytes (latin1). */
export function base32Readings(text: string): string[] {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const readings: string[] = [];
  for (const [run] of text.matchAll(/[A-Z2-7]{8,}/g)) {
    const bits = [...run].map((char) => alphabet.indexOf(char).toString(2).padStart(5, '0')).join('');
    for (let start = 0; start < 8; start++) {
      const bytes = (bits.slice(start).match(/.{8}/g) ?? []).map((byte) => parseInt(byte, 2));
      readings.push(Buffer.from(bytes).toString('latin1'));
    }
  }
  return readings;
}

const tokens = (text: string): string[] => text.split(/[\s"',[\]{}]+|\\+[nr]/).filter(Boolean);
const OFFSET = /^[0-9a-fA-F]{6,8}$/;

/** The 4-hex-digit words of the text (od -x, hexdump), each read low byte first, as bytes (latin1), from both starts. */
export function swappedWordReadings(text: string): string[] {
  const bytes = tokens(text)
    .filter((token) => /^[0-9a-fA-F]{4}$/.test(token))
    .map((word) => `${word.slice(2)}${word.slice(0, 2)}`)
    .join('');
  return [0, 1].map((skip) => Buffer.from(bytes.slice(skip * 2), 'hex').toString('latin1'));
}

/**
 * The runs of one-character tokens of the text (od -c, a spaced-out password) joined, as bytes (latin1), one run a
 * line; od's offsets between lines are skipped, its 3-digit octal fields read as bytes. A secret stands there with
 * its spaces left out (od -c shows a space as an empty field).
 */
export function spacedReading(text: string): string {
  let joined = '';
  let run = '';
  for (const token of [...tokens(undecorated(text)), 'end']) {
    if (OFFSET.test(token)) continue;
    if ([...token].length === 1) run += Buffer.from(token).toString('latin1');
    else if (/^[0-7]{3}$/.test(token)) run += String.fromCharCode(parseInt(token, 8));
    else {
      joined += `${run}\n`;
      run = '';
    }
  }
  return joined;
}

/** The secret in UTF-16 (LE, BE) as text read as UTF-8 shows it, NULs out: bytes that are not UTF-8 become U+FFFD. */
export const utf16Readings = (secret: string): string[] =>
  [false, true]
    .map((bigEndian) => {
      const bytes = Buffer.from(secret, 'utf16le');
      return (bigEndian ? bytes.swap16() : bytes).toString('utf8').replace(/\0/g, '');
    })
    .filter((reading) => reading !== secret);
