/** Shortening a service's answer for an error message, with secret values replaced by ***. */
import { MAX_SHOWN_BODY_CHARS } from '../constants.js';

export function redact(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let result = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 3) result = result.split(secret).join('***');
  }
  return result;
}

export function shorten(text: string, max = MAX_SHOWN_BODY_CHARS): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
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

export function parseBody(body: string): unknown {
  if (body === '') return '';
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}
