/**
 * The encodings a server or a child process may use when it echoes a secret
 * back, and a detector that looks for a secret in output by decoding (not by
 * the redactor's own patterns): JSON escapes undone, percent-encoding
 * decoded, every base64-looking run decoded at each start offset.
 */

/** How an echo writes a value inside a JSON string (the raw text between the quotes). */
export const ENCODINGS: Record<string, (value: string) => string> = {
  plain: (value) => JSON.stringify(value).slice(1, -1),
  'json \\/': (value) => JSON.stringify(value).slice(1, -1).replace(/\//g, '\\/'),
  'json \\u lower': (value) => [...value].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  'json \\u upper': (value) => [...value].map((char) => `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join(''),
  'base64 padded': (value) => Buffer.from(value).toString('base64'),
  'base64 unpadded': (value) => Buffer.from(value).toString('base64').replace(/=+$/, ''),
  base64url: (value) => Buffer.from(value).toString('base64url'),
  'base64url padded': (value) => Buffer.from(value).toString('base64').replace(/\+/g, '-').replace(/\//g, '_'),
  '%xx lower': (value) => encodeURIComponent(value).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
  '%XX upper': (value) => encodeURIComponent(value),
};

export const ENCODING_NAMES = Object.keys(ENCODINGS);

/**
 * The other forms the redactor knows (src/secrets/redaction.ts): JSON escaped twice (a JSON text inside a
 * JSON string), and a form body (+ for a space). With ENCODINGS, every whole form of a secret.
 */
export const ALL_ENCODINGS: Record<string, (value: string) => string> = {
  ...ENCODINGS,
  'json \\u twice': (value) => [...value].map((char) => `\\\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  'form + for space': (value) => encodeURIComponent(value).replace(/%20/g, '+'),
};

/** A JSON text holding `value` once in every encoding of ALL_ENCODINGS, in their order: {"received":["<encoded>",...]}. */
export function everyEncodingBody(value: string): string {
  return `{"received":[${Object.values(ALL_ENCODINGS).map((encode) => `"${encode(value)}"`).join(',')}]}`;
}

/** everyEncodingBody with every value hidden, as the redactor must show it. */
export const EVERY_ENCODING_HIDDEN = JSON.stringify({ received: Object.keys(ALL_ENCODINGS).map(() => '***') });

/** A JSON text whose one member holds each value, encoded; no error/message/detail member. */
export function echoBody(encoding: string, values: string[]): string {
  const encode = ENCODINGS[encoding]!;
  return `{"received":[${values.map((value) => `"${encode(value)}"`).join(',')}]}`;
}

const unescapeJson = (text: string): string =>
  text.replace(/\\+u([0-9a-fA-F]{4})/g, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/\\+([/"\\])/g, '$1');

/** Runs of %XX decoded as UTF-8 bytes. */
const percentDecode = (text: string): string =>
  text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'));

/** A form body's + read as a space. */
const plusAsSpace = (text: string): string => text.replace(/\+/g, ' ');

function inBase64(text: string, secret: string): boolean {
  for (const [run] of text.matchAll(/[A-Za-z0-9+/_-]{6,}={0,2}/g)) {
    for (let start = 0; start < 4; start++) {
      // Node's base64 decoder reads both alphabets.
      if (Buffer.from(run.slice(start), 'base64').toString('utf8').includes(secret)) return true;
    }
  }
  return false;
}

/** Whether `secret` can be read back from `text`: as is, JSON-escaped, percent-encoded (+ as a space too), or in base64 (any offset, either alphabet). */
export function reveals(text: string, secret: string): boolean {
  const unescaped = unescapeJson(text);
  const candidates = [text, unescaped, percentDecode(text), percentDecode(unescaped), percentDecode(plusAsSpace(unescaped))];
  return candidates.some((candidate) => candidate.includes(secret) || inBase64(candidate, secret));
}

/** The secrets among `secrets` that `text` reveals. */
export function revealed(text: string, secrets: string[]): string[] {
  return secrets.filter((secret) => reveals(text, secret));
}
