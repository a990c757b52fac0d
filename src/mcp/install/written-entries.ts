// Which entry svcctl wrote into which file: the only proof an entry is svcctl's (architecture.md "Written entries").
import { createHash } from 'node:crypto';
import { lstat, realpath } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { stateDir } from '../../config/config-dir.js';
import type { Context } from '../../core/context.js';
import { readSnapshot, updateSafely } from '../../fs/safe-write.js';

export interface WrittenEntry {
  file: string;
  entryPath: string[];
  entrySha256: string;
  fileSha256: string;
}

interface WrittenRecord {
  version: 1;
  entries: WrittenEntry[];
}

/** Enough for every client's files in many projects; the oldest writes go first. */
const MAX_ENTRIES = 2000;

export const writtenEntriesPath = (ctx: Pick<Context, 'env' | 'homeDir'>): string =>
  join(stateDir(ctx), 'written-entries.json');

export const textSha256 = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/** Key order does not count: a client that rewrites the file may reorder keys without changing the entry. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as { [key: string]: unknown };
    const keys = Object.keys(record).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

export const entrySha256 = (value: unknown): string => textSha256(canonical(value));

export const realFileOf = (file: string): Promise<string> => realpath(file).catch(() => resolve(file));

const isString = (value: unknown): value is string => typeof value === 'string';

function parse(text: string): WrittenRecord {
  try {
    const value = JSON.parse(text) as Partial<WrittenRecord>;
    if (!Array.isArray(value.entries)) return { version: 1, entries: [] };
    const entries = value.entries.filter(
      (entry): entry is WrittenEntry =>
        isString(entry?.file) &&
        Array.isArray(entry.entryPath) &&
        entry.entryPath.every(isString) &&
        isString(entry.entrySha256) &&
        isString(entry.fileSha256),
    );
    return { version: 1, entries };
  } catch {
    // An unreadable record vouches for nothing.
    return { version: 1, entries: [] };
  }
}

/** A record of svcctl's state is believed only when it is ours alone: not a link, one name, our uid, and neither it nor
 * its folder writable by group or others. 'absent' when there is none yet (it may then be created). */
export async function ownStateFile(path: string, uid: number | undefined): Promise<boolean | 'absent'> {
  const folder = await lstat(dirname(path)).catch(() => undefined);
  if (folder === undefined) return 'absent';
  if (!folder.isDirectory() || (uid !== undefined && (folder.uid !== uid || (folder.mode & 0o022) !== 0))) return false;
  const info = await lstat(path).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : undefined));
  if (info === null) return 'absent';
  if (info === undefined || !info.isFile() || info.nlink !== 1) return false;
  return uid === undefined || (info.uid === uid && (info.mode & 0o022) === 0);
}

async function readRecord(ctx: Context): Promise<WrittenRecord> {
  const path = writtenEntriesPath(ctx);
  if ((await ownStateFile(path, ctx.uid)) !== true) return { version: 1, entries: [] };
  const snapshot = await readSnapshot(path).catch(() => undefined);
  return parse(snapshot?.exists ? snapshot.text : '');
}

async function changeRecord(ctx: Context, change: (entries: WrittenEntry[]) => WrittenEntry[]): Promise<void> {
  const path = writtenEntriesPath(ctx);
  // A link or someone else's file is not written through: the write is then not recorded (the entry is asked about).
  if ((await ownStateFile(path, ctx.uid)) === false) return;
  await updateSafely(
    path,
    (snapshot) => {
      const entries = change(parse(snapshot.text).entries).slice(-MAX_ENTRIES);
      return `${JSON.stringify({ version: 1, entries }, null, 2)}\n`;
    },
    { mode: 0o600, privateFolder: true, backup: false },
  );
}

const samePath = (a: string[], b: string[]): boolean => a.length === b.length && a.every((key, i) => key === b[i]);

export interface EntryWrite {
  file: string;
  entryPath: string[];
  /** The entry as written; undefined when it was removed. */
  value: unknown;
  before: string;
  after: string;
}

/** After svcctl wrote `after` over `before`: the entry it wrote is recorded (a removed one forgotten), and the other
 * entries it recorded in that file stay its own only when the file was as svcctl had left it. */
export async function recordEntryWrite(ctx: Context, write: EntryWrite): Promise<void> {
  await recordEntryWrites(ctx, [{ ...write, entries: [{ entryPath: write.entryPath, value: write.value }] }]);
}

export interface EntriesWrite {
  file: string;
  /** Each entry as written; value undefined when it was removed. */
  entries: { entryPath: string[]; value: unknown }[];
  before: string;
  after: string;
}

function applyWrite(entries: WrittenEntry[], file: string, write: EntriesWrite): WrittenEntry[] {
  const [before, after] = [textSha256(write.before), textSha256(write.after)];
  const written = (entry: WrittenEntry): boolean => write.entries.some((w) => samePath(entry.entryPath, w.entryPath));
  // An entry of a file changed by someone else since stays recorded with its old file digest: still svcctl's for
  // `mcp sync` while its value is the one svcctl wrote, never again vouched for as the whole file for `mcp doctor`.
  const kept = entries.flatMap((entry) => {
    if (entry.file !== file) return [entry];
    if (written(entry)) return [];
    return [entry.fileSha256 === before ? { ...entry, fileSha256: after } : entry];
  });
  const added = write.entries.flatMap(({ entryPath, value }) =>
    value === undefined ? [] : [{ file, entryPath, entrySha256: entrySha256(value), fileSha256: after }],
  );
  return [...kept, ...added];
}

/** Writes of several files, each of one or more entries (`mcp sync`): one change of the record for all of them. */
export async function recordEntryWrites(ctx: Context, writes: EntriesWrite[]): Promise<void> {
  const files = await Promise.all(writes.map((write) => realFileOf(write.file)));
  await changeRecord(ctx, (entries) =>
    writes.reduce((current, write, index) => applyWrite(current, files[index]!, write), entries),
  );
}

/** The file itself is gone (uninstall removed the file svcctl created): nothing in it stays recorded. */
export async function forgetFile(ctx: Context, path: string): Promise<void> {
  const file = await realFileOf(path);
  await changeRecord(ctx, (entries) => entries.filter((entry) => entry.file !== file));
}

export interface FoundEntry {
  file: string;
  name: string;
  value: unknown;
  /** Of the text the entry was read from. */
  fileSha256: string;
}

/** Whether svcctl's record says it wrote exactly this entry into exactly this file, as the file is now. */
export async function svcctlWrote(ctx: Context, found: FoundEntry): Promise<boolean> {
  const file = await realFileOf(found.file);
  const digest = entrySha256(found.value);
  return (await readRecord(ctx)).entries.some(
    (entry) =>
      entry.file === file &&
      entry.entryPath.at(-1) === found.name &&
      entry.entrySha256 === digest &&
      entry.fileSha256 === found.fileSha256,
  );
}

/** Every entry svcctl's record places in this file, whether or not the file is still as svcctl left it. */
export async function recordedIn(ctx: Context, path: string): Promise<WrittenEntry[]> {
  const file = await realFileOf(path);
  return (await readRecord(ctx)).entries.filter((entry) => entry.file === file);
}
