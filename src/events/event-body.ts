/**
 * Building the exact body bytes of an event. Without --raw the body is
 * serialized once, compactly, with the members in the order
 * id, title, created_at, investigate, payload (then unknown members); with
 * --raw the bytes read are the bytes sent.
 */
import { randomUUID } from 'node:crypto';
import { invalidData } from '../errors.js';
import { isCanonicalUtc, isPlainObject, parseTimeWithZone, validateEvent, type JsonObject } from './event-validate.js';

export interface BuiltEvent {
  /** The exact bytes to sign and send. */
  body: Buffer;
  id: string;
  /** True when the input had no id and svcctl made one up. */
  idGenerated: boolean;
  warnings: string[];
}

export interface BuildDefaults {
  now: () => Date;
  newId: () => string;
}

export const systemDefaults: BuildDefaults = { now: () => new Date(), newId: randomUUID };

/** Where an input came from, for messages: "stdin", "events.ndjson line 12". */
export type InputLabel = string;

function fail(label: InputLabel, problems: string[]): never {
  const detail = problems.length === 1 ? ` ${problems[0]}` : `\n  ${problems.join('\n  ')}`;
  throw invalidData(`invalid event in ${label}:${detail}`);
}

const RAW_NEEDS_WRAPPER = 'with --raw the body must be {"event": {...}} (without --raw a bare event is wrapped for you)';

/**
 * Decodes strictly: bytes that are not UTF-8 would otherwise become U+FFFD in
 * what is sent (or, with --raw, be sent as is). Created once: it runs for
 * every NDJSON line. It also drops a leading BOM.
 */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

function decode(bytes: Buffer, label: InputLabel): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw invalidData(`${label} is not valid UTF-8 text`, 'save the file as UTF-8');
  }
}

/** The event object of a body, whether it is wrapped as {"event": {...}} or bare. */
function unwrap(document: unknown, label: InputLabel, raw: boolean): { event: JsonObject; extra: JsonObject } {
  if (!isPlainObject(document)) fail(label, ['the body must be a JSON object']);
  // The service reads {"event": {...}}; with --raw nothing is changed, so a bare event would be sent bare.
  if (raw && !('event' in document)) fail(label, [RAW_NEEDS_WRAPPER]);
  if ('event' in document) {
    // Only "event" (the usual case): no copy of the other members to make.
    const lone = Object.keys(document).length === 1;
    const { event, ...extra } = lone ? { event: document.event } : document;
    if (!isPlainObject(event)) fail(label, ['event: must be a JSON object']);
    return { event, extra };
  }
  return { event: document, extra: {} };
}

function parseJson(text: string, label: InputLabel): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    return fail(label, [`not valid JSON (${(error as Error).message})`]);
  }
}

/** A time already in the form sent (UTC, milliseconds) needs no conversion. */
function toUtc(time: string): string {
  return isCanonicalUtc(time) ? time : (parseTimeWithZone(time) as Date).toISOString();
}

/** Serializes an event in the contract's member order, filling id and created_at. */
export function canonicalBody(event: JsonObject, extra: JsonObject, defaults: BuildDefaults): { json: string; id: string } {
  const id = typeof event.id === 'string' ? event.id : defaults.newId();
  const createdAt =
    typeof event.created_at === 'string'
      ? toUtc(event.created_at)
      : defaults.now().toISOString();
  const ordered: JsonObject = { id, title: event.title, created_at: createdAt };
  if ('investigate' in event) ordered.investigate = event.investigate;
  if ('payload' in event) {
    ordered.payload = typeof event.payload === 'string' ? event.payload : JSON.stringify(event.payload);
  }
  for (const key in event) if (!(key in ordered)) ordered[key] = event[key];
  let hasExtra = false;
  for (const _ in extra) hasExtra = true;
  return { json: JSON.stringify(hasExtra ? { event: ordered, ...extra } : { event: ordered }), id };
}

/** Builds the body from the bytes of a JSON document (a file, stdin or one NDJSON line). */
export function buildFromBytes(bytes: Buffer, options: { raw: boolean; label: InputLabel; defaults?: BuildDefaults }): BuiltEvent {
  const text = decode(bytes, options.label);
  const { event, extra } = unwrap(parseJson(text, options.label), options.label, options.raw);
  const report = validateEvent(event, options.raw);
  if (report.problems.length > 0) fail(options.label, report.problems);
  const warnings = report.warnings.length === 0 ? report.warnings : report.warnings.map((w) => `${options.label}: ${w}`);
  for (const key in extra) warnings.push(`${options.label}: ${key}: unknown top-level member, passed through as is`);
  if (options.raw) return { body: bytes, id: event.id as string, idGenerated: false, warnings };
  const { json, id } = canonicalBody(event, extra, options.defaults ?? systemDefaults);
  return { body: Buffer.from(json, 'utf8'), id, idGenerated: typeof event.id !== 'string', warnings };
}

/** Builds the body from an event object assembled from flags (already validated). */
export function buildFromEvent(event: JsonObject, defaults: BuildDefaults = systemDefaults): BuiltEvent {
  const report = validateEvent(event, false);
  if (report.problems.length > 0) fail('the flags', report.problems);
  const { json, id } = canonicalBody(event, {}, defaults);
  return { body: Buffer.from(json, 'utf8'), id, idGenerated: typeof event.id !== 'string', warnings: report.warnings };
}
