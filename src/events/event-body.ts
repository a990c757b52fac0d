/**
 * Building the exact body bytes of an event. Without --raw the body is
 * serialized once, compactly, with the members in the order
 * id, title, created_at, investigate, payload (then unknown members); with
 * --raw the bytes read are the bytes sent.
 */
import { randomUUID } from 'node:crypto';
import { invalidData } from '../core/errors.js';
import { isCanonicalUtc, isPlainObject, KNOWN_EVENT_MEMBERS, parseTimeWithZone, validateEvent, type JsonObject } from './event-validate.js';

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

/** Where the bytes came from: a label, or the line number of an NDJSON line (its label, "line N", is made only when needed). */
export type BytesSource = { label: InputLabel; line?: undefined } | { line: number; label?: undefined };

const labelOf = (source: BytesSource): InputLabel => source.label ?? `line ${source.line}`;

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

function decode(bytes: Buffer, source: BytesSource): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw invalidData(`${labelOf(source)} is not valid UTF-8 text`, 'save the file as UTF-8');
  }
}

/** The top-level members beside "event", when there are none (the usual case). */
const NO_EXTRA: JsonObject = Object.freeze(Object.create(null) as JsonObject);

/** The event object of a body, whether it is wrapped as {"event": {...}} or bare, and the members beside it. */
function unwrap(document: unknown, source: BytesSource, raw: boolean): { event: JsonObject; extra: JsonObject } {
  if (!isPlainObject(document)) fail(labelOf(source), ['the body must be a JSON object']);
  // The service reads {"event": {...}}; with --raw nothing is changed, so a bare event would be sent bare.
  if (!('event' in document)) {
    if (raw) fail(labelOf(source), [RAW_NEEDS_WRAPPER]);
    return { event: document, extra: NO_EXTRA };
  }
  const { event } = document;
  if (!isPlainObject(event)) fail(labelOf(source), ['event: must be a JSON object']);
  let extra = NO_EXTRA;
  for (const key in document) {
    // A prototype-less object: a member named __proto__ stays a member.
    if (key !== 'event') (extra === NO_EXTRA ? (extra = Object.create(null) as JsonObject) : extra)[key] = document[key];
  }
  return { event, extra };
}

function parseJson(text: string, source: BytesSource): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    return fail(labelOf(source), [`not valid JSON (${(error as Error).message})`]);
  }
}

/** A time already in the form sent (UTC, milliseconds) needs no conversion. */
function toUtc(time: string): string {
  return isCanonicalUtc(time) ? time : (parseTimeWithZone(time) as Date).toISOString();
}

/** `,"name":value` for each member of `members` not named in `skip` (one whose value is undefined is left out, as JSON.stringify does). */
function moreMembers(members: JsonObject, skip?: (key: string) => boolean): string {
  let json = '';
  for (const key in members) {
    if (skip?.(key) || members[key] === undefined) continue;
    json += `,${JSON.stringify(key)}:${JSON.stringify(members[key])}`;
  }
  return json;
}

const isKnownMember = (key: string): boolean => (KNOWN_EVENT_MEMBERS as readonly string[]).includes(key);

/**
 * Serializes an event in the contract's member order, filling id and created_at:
 * {"event":{"id":…,"title":…,"created_at":…,"investigate":…,"payload":…,<unknown members>},<other top-level members>}.
 * Built member by member (each value by JSON.stringify): the same text as JSON.stringify of the
 * ordered object, without making that object.
 */
export function canonicalBody(event: JsonObject, extra: JsonObject, defaults: BuildDefaults): { json: string; id: string } {
  const id = typeof event.id === 'string' ? event.id : defaults.newId();
  const createdAt = typeof event.created_at === 'string' ? toUtc(event.created_at) : defaults.now().toISOString();
  let json = `{"event":{"id":${JSON.stringify(id)},"title":${JSON.stringify(event.title)},"created_at":${JSON.stringify(createdAt)}`;
  if ('investigate' in event) json += `,"investigate":${JSON.stringify(event.investigate)}`;
  if ('payload' in event) {
    const payload = typeof event.payload === 'string' ? event.payload : JSON.stringify(event.payload);
    json += `,"payload":${JSON.stringify(payload)}`;
  }
  json += moreMembers(event, isKnownMember);
  json += '}';
  if (extra !== NO_EXTRA) json += moreMembers(extra);
  return { json: `${json}}`, id };
}

/** Builds the body from the bytes of a JSON document (a file, stdin or one NDJSON line). */
export function buildFromBytes(bytes: Buffer, options: BytesSource & { raw: boolean; defaults?: BuildDefaults }): BuiltEvent {
  const text = decode(bytes, options);
  const { event, extra } = unwrap(parseJson(text, options), options, options.raw);
  const report = validateEvent(event, options.raw);
  if (report.problems.length > 0) fail(labelOf(options), report.problems);
  const warnings = report.warnings.length === 0 ? report.warnings : report.warnings.map((w) => `${labelOf(options)}: ${w}`);
  for (const key in extra) warnings.push(`${labelOf(options)}: ${key}: unknown top-level member, passed through as is`);
  if (options.raw) return { body: bytes, id: event.id as string, idGenerated: false, warnings };
  const { json, id } = canonicalBody(event, extra, options.defaults ?? systemDefaults);
  // Input already in the form sent (the usual case of a generated batch): its bytes are the body.
  const body = json.length === bytes.length && json === text ? bytes : Buffer.from(json, 'utf8');
  return { body, id, idGenerated: typeof event.id !== 'string', warnings };
}

/** Builds the body from an event object assembled from flags (already validated). */
export function buildFromEvent(event: JsonObject, defaults: BuildDefaults = systemDefaults): BuiltEvent {
  const report = validateEvent(event, false);
  if (report.problems.length > 0) fail('the flags', report.problems);
  const { json, id } = canonicalBody(event, {}, defaults);
  return { body: Buffer.from(json, 'utf8'), id, idGenerated: typeof event.id !== 'string', warnings: report.warnings };
}
