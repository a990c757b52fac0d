import { MAX_SHOWN_BODY_CHARS } from '../core/constants.js';
import type { Redactor } from '../secrets/redaction.js';

/** Terminal escape sequences among them: shown as \u001b etc., never sent to a terminal. */
export function neutralizeControls(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function shorten(text: string, max = MAX_SHOWN_BODY_CHARS): string {
  const oneLine = neutralizeControls(text.replace(/\s+/g, ' ').trim());
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max)}… (${oneLine.length - max} more characters)`;
}

export function serviceMessage(body: string, redactor: Redactor): string {
  let text = body;
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object') {
      const record = parsed as Record<string, unknown>;
      const found = [record.error, record.message, record.detail].find((v) => typeof v === 'string');
      if (typeof found === 'string') text = found;
      else if (record.error && typeof record.error === 'object') text = JSON.stringify(record.error);
    }
  } catch {}
  const shown = shorten(redactor.redact(text));
  return shown === '' ? '(empty body)' : shown;
}

const MAX_REPORTED_BODY_CHARS = 4096;

export function parseBody(body: string, redactor: Redactor): unknown {
  if (body === '') return '';
  if (body.length > MAX_REPORTED_BODY_CHARS) return shorten(redactor.redact(body), MAX_REPORTED_BODY_CHARS);
  try {
    return redactor.redactValue(JSON.parse(body));
  } catch {
    return redactor.redact(body);
  }
}
