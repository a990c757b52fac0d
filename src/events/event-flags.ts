import { resolve } from 'node:path';
import { usageError } from '../core/errors.js';
import { readFileOrPipe } from '../fs/file-or-pipe.js';
import { fileReadError, MAX_EVENT_BYTES } from '../fs/read-input.js';
import {
  describeTimeProblem,
  isPlainObject,
  isUuid,
  parseTimeWithZone,
  payloadProblems,
  type JsonObject,
} from './event-validate.js';

export type Warn = (message: string) => void;

export interface EventFlags {
  title?: string;
  investigate?: boolean;
  source?: string;
  severity?: string;
  message?: string;
  label?: string[];
  payload?: string;
  payloadFile?: string;
  id?: string;
  createdAt?: string;
}

export const FLAG_MODE_OPTIONS: ReadonlyArray<[keyof EventFlags, string]> = [
  ['title', '--title'],
  ['investigate', '--investigate'],
  ['source', '--source'],
  ['severity', '--severity'],
  ['message', '--message'],
  ['label', '--label'],
  ['payload', '--payload'],
  ['payloadFile', '--payload-file'],
  ['id', '--id'],
  ['createdAt', '--created-at'],
];

export function usedFlagModeOptions(flags: EventFlags): string[] {
  return FLAG_MODE_OPTIONS.filter(([key]) => {
    const value = flags[key];
    return value !== undefined && value !== false && !(Array.isArray(value) && value.length === 0);
  }).map(([, flag]) => flag);
}

function parseLabels(labels: string[], warn: Warn): Record<string, string> {
  const result: Record<string, string> = {};
  for (const label of labels) {
    const at = label.indexOf('=');
    if (at <= 0) throw usageError(`--label '${label}' must be key=value`, 'e.g. --label env=production');
    const key = label.slice(0, at);
    if (Object.hasOwn(result, key)) warn(`--label ${key} given twice; the last value is used`);
    result[key] = label.slice(at + 1);
  }
  return result;
}

function parsePayloadText(text: string, flag: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw usageError(`${flag} is not valid JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(value)) throw usageError(`${flag} must hold a JSON object`);
  const problems = payloadProblems(value, 'payload');
  if (problems.length === 1) throw usageError(`${flag}: ${problems[0]}`);
  if (problems.length > 1) throw usageError(`${flag}:\n  ${problems.join('\n  ')}`);
  return value;
}

async function payloadFromFlags(flags: EventFlags, warn: Warn, cwd: string): Promise<JsonObject> {
  const members = ['source', 'severity', 'message'] as const;
  const usesMembers = members.some((m) => flags[m] !== undefined) || (flags.label?.length ?? 0) > 0;
  if (flags.payload !== undefined && flags.payloadFile !== undefined) {
    throw usageError('--payload and --payload-file cannot be combined');
  }
  const whole = flags.payload ?? flags.payloadFile;
  if (whole !== undefined) {
    const flag = flags.payload !== undefined ? '--payload' : '--payload-file';
    if (usesMembers) {
      throw usageError(
        `${flag} gives the whole payload; it cannot be combined with --source, --severity, --message or --label`,
      );
    }
    if (flags.payload !== undefined) return parsePayloadText(flags.payload, flag);
    let text: string;
    try {
      text = (await readFileOrPipe(resolve(cwd, whole), MAX_EVENT_BYTES)).toString('utf8');
    } catch (error) {
      throw fileReadError(whole, error, '--payload-file');
    }
    return parsePayloadText(text, `--payload-file ${whole}`);
  }
  const payload: JsonObject = {};
  for (const member of members) if (flags[member] !== undefined) payload[member] = flags[member];
  if ((flags.label?.length ?? 0) > 0) payload.labels = parseLabels(flags.label ?? [], warn);
  return payload;
}

export async function eventFromFlags(flags: EventFlags, warn: Warn, cwd: string): Promise<JsonObject> {
  if (flags.title === undefined) {
    throw usageError(
      'no event: give --title (and other flags), or a FILE, or - to read stdin',
      "see 'svcctl event send --help'",
    );
  }
  if (flags.title.trim() === '') throw usageError('--title must not be empty');
  const event: JsonObject = {};
  if (flags.id !== undefined) {
    if (!isUuid(flags.id))
      throw usageError(`--id must be a UUID like 6f1c2a4e-8b7d-4c3e-9f0a-1b2c3d4e5f60, got '${flags.id}'`);
    event.id = flags.id;
  }
  event.title = flags.title;
  if (flags.createdAt !== undefined) {
    if (!parseTimeWithZone(flags.createdAt)) throw usageError(`--created-at: ${describeTimeProblem(flags.createdAt)}`);
    event.created_at = flags.createdAt;
  }
  event.investigate = flags.investigate ?? false;
  event.payload = await payloadFromFlags(flags, warn, cwd);
  return event;
}
