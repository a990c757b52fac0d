/**
 * What `mcp sync` makes of one client's file: the declared entries added or brought up to date, the entries svcctl
 * wrote there that the declaration dropped removed, every other entry untouched. Which entries are svcctl's is the
 * record of written-entries.ts alone, by value: an entry it names whose parsed value is still the one svcctl wrote
 * stays svcctl's whatever a client did to the rest of the file (Claude Code and Qwen Code re-serialise theirs at
 * their first start); one whose value changed since is not, so it is reported and left, never overwritten or removed.
 */
import { sameValue } from '../../formats/config-document.js';
import { readSnapshot, type FileSnapshot } from '../../fs/safe-write.js';
import type { Context } from '../../core/context.js';
import type { ClientEnv, ClientId, RenderedEntry, Scope } from '../types.js';
import {
  checkTarget,
  fileTargetOf,
  newFileStart,
  openDocument,
  textWithoutEntry,
  withInputs,
  type FileTarget,
} from './install-plan.js';
import { refuseDuplicates } from './duplicate-entries.js';
import { otherSystemsForm } from './windows-form.js';
import { CLIENTS } from '../clients/table.js';
import { entrySha256, recordedIn, type WrittenEntry } from './written-entries.js';

export type EntryStatus = 'unchanged' | 'added' | 'updated' | 'removed' | 'failed';

export interface EntryOutcome {
  name: string;
  status: EntryStatus;
  reason?: string;
  /** Failed because the entry is in the file and is not svcctl's to change: removing it lets sync write its own. */
  leftInFile?: true;
}

/** One declared server as this client would hold it, or why it cannot. */
export interface DeclaredEntry {
  name: string;
  rendered?: RenderedEntry;
  failed?: string;
}

/** A client, and for an extension client the VS Code host whose storage holds its file. */
export interface SyncTarget {
  client: ClientId;
  host?: string;
}

export interface ClientSyncPlan {
  client: ClientId;
  target: FileTarget;
  snapshot: FileSnapshot;
  realFile: string;
  before: string;
  after: string;
  entries: EntryOutcome[];
  /** What the record learns after the write: each entry written (value) or removed (undefined). */
  writes: { entryPath: string[]; value: unknown }[];
}

const samePath = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((key, index) => key === b[index]);

const NOT_OURS =
  'an entry of this name is in the file and svcctl did not write it (or it was changed since): svcctl leaves it';

/** Why an entry that differs only by `cmd /c` is left (windows-form.ts), and what the team can do instead. */
function otherSystemsReason(form: 'windows' | 'elsewhere', id: ClientId): string {
  const client = CLIENTS[id].label;
  const own = CLIENTS[id].scopes.includes('local') ? 'local' : 'user';
  const written =
    form === 'windows'
      ? 'it is the Windows form (`cmd /c` before the program), written by a member on Windows'
      : 'it is the form for Linux and macOS, without the `cmd /c` that it needs on native Windows';
  return `${written}; ${client} on this system cannot start it, nor the other form on the other system, so one committed file cannot serve both: declare ${client} with scope = "${own}" in a file of each member's own and leave it out of the project's, or use a mode whose ${client} entry runs no command (docs/teams.md, "Windows and Linux in one team")`;
}

/** The record's entries under this scope's servers key, each with whether its value is still the one svcctl wrote. */
function recordedHere(
  records: WrittenEntry[],
  parent: string[],
  valueAt: (path: string[]) => unknown,
): { entry: WrittenEntry; ours: boolean }[] {
  return records
    .filter((entry) => samePath(entry.entryPath.slice(0, -1), parent))
    .map((entry) => {
      const value = valueAt(entry.entryPath);
      return { entry, ours: value !== undefined && entrySha256(value) === entry.entrySha256 };
    });
}

export async function planClientSync(
  ctx: Context,
  { client, host }: SyncTarget,
  scope: Scope,
  clientEnv: ClientEnv,
  declared: DeclaredEntry[],
  given?: FileSnapshot,
): Promise<ClientSyncPlan> {
  const targetOf = (name: string): FileTarget => fileTargetOf({ client, host }, name, scope, clientEnv, undefined, ctx);
  const target = targetOf(declared[0]?.name ?? 'svcctl');
  const realFile = await checkTarget(target);
  const snapshot = given ?? (await readSnapshot(target.file));
  const before = snapshot.text;
  let text = snapshot.exists ? before : newFileStart(target);
  const valueAt = (path: string[]): unknown => openDocument(target.format, text, target.file, target.client).get(path);
  refuseDuplicates(
    openDocument(target.format, text, target.file, target.client),
    target.entryPath.slice(0, -1),
    target.file,
  );
  const records = snapshot.exists ? await recordedIn(ctx, target.file) : [];
  const recorded = recordedHere(records, target.entryPath.slice(0, -1), valueAt);
  const isOurs = (path: string[]): boolean => recorded.some((r) => r.ours && samePath(r.entry.entryPath, path));
  const entries: EntryOutcome[] = [];
  const writes: ClientSyncPlan['writes'] = [];
  for (const { name, rendered, failed } of declared) {
    if (rendered === undefined) {
      entries.push({ name, status: 'failed', reason: failed ?? 'cannot be written for this client' });
      continue;
    }
    const entryTarget = targetOf(name);
    const existing = valueAt(entryTarget.entryPath);
    if (existing !== undefined && !sameValue(existing, rendered.value) && !isOurs(entryTarget.entryPath)) {
      const form = scope === 'project' ? otherSystemsForm(existing, rendered.value) : undefined;
      // Another system's form is not offered for removal: this system's form, written instead, fails the other member.
      entries.push(
        form
          ? { name, status: 'failed', reason: otherSystemsReason(form, client) }
          : { name, status: 'failed', reason: NOT_OURS, leftInFile: true },
      );
      continue;
    }
    const start = text;
    if (existing === undefined || !sameValue(existing, rendered.value))
      text = openDocument(target.format, text, target.file, target.client).set(entryTarget.entryPath, rendered.value);
    if (target.format !== 'toml' && target.format !== 'yaml') text = withInputs(text, entryTarget, rendered);
    const status = existing === undefined ? 'added' : text === start ? 'unchanged' : 'updated';
    entries.push({ name, status });
    if (status !== 'unchanged' || isOurs(entryTarget.entryPath))
      writes.push({ entryPath: entryTarget.entryPath, value: rendered.value });
  }
  const declaredPaths = declared.map(({ name }) => targetOf(name).entryPath);
  for (const { entry, ours } of recorded) {
    if (declaredPaths.some((path) => samePath(path, entry.entryPath))) continue;
    const name = entry.entryPath.at(-1)!;
    if (!ours) {
      if (valueAt(entry.entryPath) !== undefined)
        entries.push({
          name,
          status: 'failed',
          reason: 'svcctl wrote it, but it was changed since: svcctl leaves it',
          leftInFile: true,
        });
      continue;
    }
    const removal = { ...target, entryPath: entry.entryPath };
    text = textWithoutEntry(removal, openDocument(target.format, text, target.file, target.client));
    entries.push({ name, status: 'removed' });
    writes.push({ entryPath: entry.entryPath, value: undefined });
  }
  // A file that would be created holding nothing declared is not created.
  const after = !snapshot.exists && !entries.some((e) => e.status === 'added') ? before : text;
  return { client, target, snapshot, realFile, before, after, entries, writes };
}

export const changesFile = (plan: ClientSyncPlan): boolean => plan.after !== plan.before;
