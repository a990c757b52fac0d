/** Shortening a service's answer for an error message, with secret values replaced by ***. */
import { MAX_SHOWN_BODY_CHARS } from '../constants.js';

/**
 * The forms a secret takes when a service echoes it back: as is, escaped inside
 * a JSON string, and URL-encoded (form bodies, query strings).
 */
function echoedForms(secret: string): string[] {
  const forms = new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]);
  return [...forms].sort((a, b) => b.length - a.length);
}

/** Secrets this short are replaced only where they stand alone, so that messages stay readable. */
const SHORT_SECRET = 4;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function redact(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let result = text;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of echoedForms(secret)) {
      result =
        secret.length < SHORT_SECRET
          ? result.replace(new RegExp(`(?<![A-Za-z0-9_])${escapeRegExp(form)}(?![A-Za-z0-9_])`, 'g'), '***')
          : result.split(form).join('***');
    }
  }
  return result;
}

/**
 * A parsed answer with every string (keys too) redacted: redacting the raw
 * text is not enough, since JSON may escape a secret in ways that parsing
 * turns back into the secret (\/, \u003c, …).
 */
export function redactValue(value: unknown, secrets: ReadonlyArray<string | undefined>): unknown {
  if (typeof value === 'string') return redact(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [redact(key, secrets), redactValue(item, secrets)]));
  }
  return value;
}

/** Control characters (terminal escape sequences among them) shown as \u001b etc., never sent to a terminal. */
export function neutralizeControls(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function shorten(text: string, max = MAX_SHOWN_BODY_CHARS): string {
  const oneLine = neutralizeControls(text.replace(/\s+/g, ' ').trim());
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max)}… (${oneLine.length - max} more characters)`;
}

/** The message of a JSON error body ({"error"}, {"message"}, {"detail"}), else the text itself. */
export function serviceMessage(body: string, secrets: ReadonlyArray<string | undefined>): string {
  let text = body;
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object') {
      const record = parsed as Record<string, unknown>;
      const found = [record.error, record.message, record.detail].find((v) => typeof v === 'string');
      if (typeof found === 'string') text = found;
      else if (record.error && typeof record.error === 'object') text = JSON.stringify(record.error);
    }
  } catch {
    // not JSON: show the text
  }
  const shown = shorten(redact(text, secrets));
  return shown === '' ? '(empty body)' : shown;
}

/** The largest answer body reported whole in --json output; a longer one is shortened. */
const MAX_REPORTED_BODY_CHARS = 4096;

/** The answer body for --json output: parsed JSON or the text, long ones shortened, secrets redacted. */
export function parseBody(body: string, secrets: ReadonlyArray<string | undefined> = []): unknown {
  if (body === '') return '';
  if (body.length > MAX_REPORTED_BODY_CHARS) return shorten(redact(body, secrets), MAX_REPORTED_BODY_CHARS);
  try {
    return redactValue(JSON.parse(body), secrets);
  } catch {
    return redact(body, secrets);
  }
}
