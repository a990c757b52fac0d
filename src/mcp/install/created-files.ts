// The files and folders `mcp install` created, so uninstall removes only those (architecture.md "Created files").
import { lstat, rm, rmdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { stateDir } from '../../config/config-dir.js';
import type { Context } from '../../core/context.js';
import { lockForWriting, readSnapshot, unchangedSince, updateSafely } from '../../fs/safe-write.js';
import { optionalMcpUrl } from '../../config/base-url.js';
import { MCP_SERVER_PACKAGE } from '../../core/constants.js';
import { sameValue } from '../../formats/config-document.js';
import { pointsAtService } from '../service-entries.js';
import { checkTarget, newFileStart, openDocument, textWithoutEntry, type FileTarget } from './install-plan.js';
import { ownStateFile } from './written-entries.js';

interface CreatedFiles {
  version: 1;
  files: string[];
  folders: string[];
}

export const createdFilesPath = (ctx: Pick<Context, 'env' | 'homeDir'>): string =>
  join(stateDir(ctx), 'created-files.json');

const names = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

function parse(text: string): CreatedFiles {
  try {
    const value = JSON.parse(text) as Partial<CreatedFiles>;
    if (Array.isArray(value.files)) return { version: 1, files: names(value.files), folders: names(value.folders) };
  } catch {
    // An unreadable record names no file: nothing is removed on its word.
  }
  return { version: 1, files: [], folders: [] };
}

const ownRecord = async (path: string, uid: number | undefined): Promise<boolean> =>
  (await ownStateFile(path, uid)) !== false;

async function readRecord(ctx: Context): Promise<CreatedFiles> {
  const path = createdFilesPath(ctx);
  if (!(await ownRecord(path, ctx.uid))) return { version: 1, files: [], folders: [] };
  const snapshot = await readSnapshot(path).catch(() => undefined);
  return parse(snapshot?.exists ? snapshot.text : '');
}

async function changeRecord(
  ctx: Context,
  change: (files: Set<string>, folders: Set<string>) => boolean,
): Promise<void> {
  const path = createdFilesPath(ctx);
  // A link or someone else's file in svcctl's state folder is not written through: the file is then not recorded.
  if (!(await ownRecord(path, ctx.uid))) return;
  await updateSafely(
    path,
    (snapshot) => {
      const record = parse(snapshot.text);
      const files = new Set(record.files);
      const folders = new Set(record.folders);
      if (!change(files, folders)) return undefined;
      return `${JSON.stringify({ version: 1, files: [...files].sort(), folders: [...folders].sort() }, null, 2)}\n`;
    },
    { mode: 0o600, privateFolder: true, backup: false },
  );
}

/** `folders`: the ones the write made for the file (missingFolders, asked before it). */
export async function recordCreated(ctx: Context, file: string, folders: string[] = []): Promise<void> {
  const path = resolve(file);
  await changeRecord(ctx, (files, recorded) => {
    const known = files.has(path) && folders.every((folder) => recorded.has(folder));
    files.add(path);
    for (const folder of folders) recorded.add(folder);
    return !known;
  });
}

async function forgetCreated(ctx: Context, file: string): Promise<void> {
  const path = resolve(file);
  await changeRecord(ctx, (files) => files.delete(path));
}

/** The folders above `file` that are not there yet, nearest first: the ones a write of it would make. */
export async function missingFolders(file: string): Promise<string[]> {
  const missing: string[] = [];
  for (let folder = dirname(resolve(file)); folder !== dirname(folder); folder = dirname(folder)) {
    if ((await lstat(folder).catch(() => undefined)) !== undefined) break;
    missing.push(folder);
  }
  return missing;
}

/** From the file's folder up, each folder svcctl made goes while it is empty; the first one kept ends the walk. */
async function removeCreatedFolders(ctx: Context, file: string): Promise<void> {
  const { folders } = await readRecord(ctx);
  const removed: string[] = [];
  for (let folder = dirname(resolve(file)); folders.includes(folder); folder = dirname(folder)) {
    // rmdir removes only an empty folder, and never follows a link.
    if (
      !(await rmdir(folder).then(
        () => true,
        () => false,
      ))
    )
      break;
    removed.push(folder);
  }
  if (removed.length === 0) return;
  await changeRecord(ctx, (_, recorded) => removed.map((folder) => recorded.delete(folder)).includes(true));
}

export async function createdBySvcctl(ctx: Context, file: string): Promise<boolean> {
  return (await readRecord(ctx)).files.includes(resolve(file));
}

// A named list (Continue's YAML) finds an entry by its name field.
const placeholder = (target: FileTarget): Record<string, string> => ({ name: target.entryPath.at(-1) ?? '' });

const squeezed = (text: string): string => text.replace(/\s+/g, '');

/** The file svcctl would leave after adding and removing an entry in a new file: same keys, no comment, no other text. */
export function isEmptyShell(target: FileTarget, text: string): boolean {
  if (text.trim() === '') return true;
  try {
    const start = newFileStart(target);
    const withEntry = openDocument(target.format, start, target.file, target.client).set(
      target.entryPath,
      placeholder(target),
    );
    const shell = textWithoutEntry(target, openDocument(target.format, withEntry, target.file, target.client));
    if (squeezed(shell) !== squeezed(text)) return false;
    const value = (t: string) => openDocument(target.format, t, target.file, target.client).get([]);
    return sameValue(value(shell), value(text));
  } catch {
    return false;
  }
}

/** A backup holds no user content when it is the shell, or the shell with only entries for the service in it (`mcp
 * list`'s test, so the entries of two names or deployments an uninstall --all removed go with it). */
function backupIsOurs(ctx: Context, target: FileTarget, text: string): boolean {
  if (isEmptyShell(target, text)) return true;
  const matcher = { package: MCP_SERVER_PACKAGE, mcpUrl: optionalMcpUrl(ctx) };
  try {
    let document = openDocument(target.format, text, target.file, target.client);
    const servers = document.get(target.entryPath.slice(0, -1));
    if (servers === null || typeof servers !== 'object') return false;
    // A named list (Continue's YAML) names each entry by its name field.
    const entries = Array.isArray(servers)
      ? servers.map((value: unknown) => [(value as { name?: unknown } | null)?.name, value] as const)
      : Object.entries(servers);
    for (const [name, value] of entries) {
      if (typeof name !== 'string' || !pointsAtService(value, matcher)) return false;
      const entry = { ...target, entryPath: [...target.entryPath.slice(0, -1), name] };
      document = openDocument(target.format, textWithoutEntry(entry, document), target.file, target.client);
    }
    return isEmptyShell(target, document.text);
  } catch {
    return false;
  }
}

/** Not a link, no second name, the user's own: svcctl's rename leaves nothing else. */
async function plainFile(path: string, uid: number | undefined): Promise<boolean> {
  const info = await lstat(path).catch(() => undefined);
  return info?.isFile() === true && info.nlink === 1 && (uid === undefined || info.uid === uid);
}

export interface Removed {
  backup: string | null;
}

/** Removes the file when it still holds exactly `expected` (under its lock, so no write of another svcctl is lost);
 * undefined when it changed, for the caller to edit it as usual. Its .bak goes with it when it is ours. */
export async function removeCreatedFile(
  ctx: Context,
  target: FileTarget,
  expected: string,
): Promise<Removed | undefined> {
  const file = target.file;
  // Looked at again right before: a link may have been planted since planning.
  await checkTarget(target);
  if (!(await plainFile(file, ctx.uid))) return undefined;
  const lock = await lockForWriting(file, file, {});
  try {
    const snapshot = await readSnapshot(file);
    if (!snapshot.exists || snapshot.path !== snapshot.realPath || snapshot.text !== expected) return undefined;
    if (!(await unchangedSince(snapshot))) return undefined;
    await rm(file);
  } finally {
    await lock.release();
  }
  await forgetCreated(ctx, file);
  const removed = await removeOwnBackup(ctx, target);
  await removeCreatedFolders(ctx, file);
  return removed;
}

async function removeOwnBackup(ctx: Context, target: FileTarget): Promise<Removed> {
  const backup = `${target.file}.bak`;
  if (!(await plainFile(backup, ctx.uid))) return { backup: null };
  const text = await readSnapshot(backup).then(
    (snapshot) => snapshot.text,
    () => undefined,
  );
  if (text === undefined || !backupIsOurs(ctx, target, text)) return { backup: null };
  await rm(backup, { force: true });
  return { backup };
}

/** Several files at once (`mcp sync`): one change of the record, not one per file. */
export async function recordCreatedFiles(ctx: Context, created: string[]): Promise<void> {
  const paths = created.map((file) => resolve(file));
  await changeRecord(ctx, (files) => {
    const fresh = paths.filter((path) => !files.has(path));
    for (const path of fresh) files.add(path);
    return fresh.length > 0;
  });
}
