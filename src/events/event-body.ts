import { randomUUID } from 'node:crypto';
import { CliError, ExitCode, invalidData } from '../core/errors.js';
import {
  isCanonicalUtc,
  isPlainObject,
  KNOWN_EVENT_MEMBERS,
  parseTimeWithZone,
  validateEvent,
  type JsonObject,
} from './event-validate.js';

export interface BuiltEvent {
  body: Buffer;
  id: string;
  idGenerated: boolean;
  warnings: string[];
}

export interface BuildDefaults {
  now: () => Date;
  newId: () => string;
}

export const systemDefaults: BuildDefaults = { now: () => new Date(), newId: randomUUID };

export type InputLabel = string;

/** The label "line N" is made only when needed. */
export type BytesSource = { label: InputLabel; line?: undefined } | { line: number; label?: undefined };

const labelOf = (source: BytesSource): InputLabel => source.label ?? `line ${source.line}`;

function fail(label: InputLabel, problems: string[]): never {
  const detail = problems.length === 1 ? ` ${problems[0]}` : `\n  ${problems.join('\n  ')}`;
  throw invalidData(`invalid event in ${label}:${detail}`);
}

const RAW_NEEDS_WRAPPER =
  'with --raw the body must be {"event": {...}} (without --raw a bare event is wrapped for you)';

/** Fatal: bytes that are not UTF-8 would otherwise be sent as U+FFFD. Made once, on first use (~0.1 ms, and an event
 * built from flags has no bytes to decode): it runs per NDJSON line. */
let utf8: InstanceType<typeof TextDecoder> | undefined;

function decode(bytes: Buffer, source: BytesSource): string {
  try {
    utf8 ??= new TextDecoder('utf-8', { fatal: true });
    return utf8.decode(bytes);
  } catch {
    throw invalidData(`${labelOf(source)} is not valid UTF-8 text`, 'save the file as UTF-8');
  }
}

const NO_EXTRA: JsonObject = Object.freeze(Object.create(null) as JsonObject);

function unwrap(document: unknown, source: BytesSource, raw: boolean): { event: JsonObject; extra: JsonObject } {
  if (!isPlainObject(document)) fail(labelOf(source), ['the body must be a JSON object']);
  if (!('event' in document)) {
    if (raw) fail(labelOf(source), [RAW_NEEDS_WRAPPER]);
    return { event: document, extra: NO_EXTRA };
  }
  const { event } = document;
  if (!isPlainObject(event)) fail(labelOf(source), ['event: must be a JSON object']);
  let extra = NO_EXTRA;
  for (const key in document) {
    // A prototype-less object: a member named __proto__ stays a member.
    if (key !== 'event')
      (extra === NO_EXTRA ? (extra = Object.create(null) as JsonObject) : extra)[key] = document[key];
  }
  return { event, extra };
}

/** A document that is not JSON: an async caller can name the line and column (events/json-location.ts). */
export class InvalidJson extends CliError {
  constructor(
    readonly label: InputLabel,
    readonly text: string,
    v8Message: string,
  ) {
    super(ExitCode.InvalidData, `invalid event in ${label}: not valid JSON (${v8Message})`);
  }

  async located(): Promise<CliError> {
    const { jsonErrorLocation } = await import('./json-location.js');
    const where = jsonErrorLocation(this.text);
    return where === undefined ? this : invalidData(`invalid event in ${this.label}: not valid JSON at ${where}`);
  }
}

function parseJson(text: string, source: BytesSource): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidJson(labelOf(source), text, (error as Error).message);
  }
}

function toUtc(time: string): string {
  return isCanonicalUtc(time) ? time : (parseTimeWithZone(time) as Date).toISOString();
}

function moreMembers(members: JsonObject, skip?: (key: string) => boolean): string {
  let json = '';
  for (const key in members) {
    if (skip?.(key) || members[key] === undefined) continue;
    json += `,${JSON.stringify(key)}:${JSON.stringify(members[key])}`;
  }
  return json;
}

const isKnownMember = (key: string): boolean => (KNOWN_EVENT_MEMBERS as readonly string[]).includes(key);

/** Built member by member: the same text as JSON.stringify of the ordered object, without making that object. */
export function canonicalBody(
  event: JsonObject,
  extra: JsonObject,
  defaults: BuildDefaults,
): { json: string; id: string } {
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

export function buildFromBytes(
  bytes: Buffer,
  options: BytesSource & { raw: boolean; defaults?: BuildDefaults },
): BuiltEvent {
  const text = decode(bytes, options);
  const { event, extra } = unwrap(parseJson(text, options), options, options.raw);
  const report = validateEvent(event, options.raw);
  if (report.problems.length > 0) fail(labelOf(options), report.problems);
  const warnings =
    report.warnings.length === 0 ? report.warnings : report.warnings.map((w) => `${labelOf(options)}: ${w}`);
  for (const key in extra) warnings.push(`${labelOf(options)}: ${key}: unknown top-level member, passed through as is`);
  if (options.raw) return { body: bytes, id: event.id as string, idGenerated: false, warnings };
  const { json, id } = canonicalBody(event, extra, options.defaults ?? systemDefaults);
  const body = json.length === bytes.length && json === text ? bytes : Buffer.from(json, 'utf8');
  return { body, id, idGenerated: typeof event.id !== 'string', warnings };
}

export function buildFromEvent(event: JsonObject, defaults: BuildDefaults = systemDefaults): BuiltEvent {
  const report = validateEvent(event, false);
  if (report.problems.length > 0) fail('the flags', report.problems);
  const { json, id } = canonicalBody(event, {}, defaults);
  return { body: Buffer.from(json, 'utf8'), id, idGenerated: typeof event.id !== 'string', warnings: report.warnings };
}
