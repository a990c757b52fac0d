import { MAX_SHOWN_BODY_CHARS } from '../core/constants.js';
import { neutralizeControls } from '../core/output.js';
import type { Redactor } from '../secrets/redaction.js';

export function shorten(text: string, max = MAX_SHOWN_BODY_CHARS): string {
  const oneLine = neutralizeControls(text.replace(/\s+/g, ' ').trim());
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max)}… (${oneLine.length - max} more characters)`;
}

const HTML_START = /^\s*(?:<!doctype html|<html[\s>])/i;

/** A web page (a proxy's or a plain web server's error page) is named by its title: its markup on one line says nothing. */
export function htmlSummary(body: string): string | undefined {
  if (!HTML_START.test(body)) return undefined;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1]?.replace(/\s+/g, ' ').trim();
  if (title) return `an HTML page titled "${shorten(title, 80)}"`;
  const words = body.replace(/<(script|style)[^>]*>[^]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ');
  return `an HTML page without a title: "${shorten(words, 80)}"`;
}

export function serviceMessage(body: string, redactor: Redactor): string {
  const page = htmlSummary(body);
  if (page !== undefined) return redactor.redact(page);
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
