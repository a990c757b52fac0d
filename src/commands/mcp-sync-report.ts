/** What `svcctl mcp sync` says per client and at the end: done, left, or not compliant (docs/teams.md). */
import type { Context } from '../core/context.js';
import { foreign } from '../core/output.js';
import type { SyncDeclaration } from '../mcp/install/sync-declaration.js';
import { changesFile, type ClientSyncPlan, type EntryOutcome } from '../mcp/install/sync-plan.js';
import { hintWord } from '../mcp/render/shell-quote.js';
import type { ClientId } from '../mcp/types.js';

export interface ClientResult {
  client: ClientId;
  /** The VS Code host of an extension client that is in several (host-targets.ts). */
  host?: string;
  /** The client's label, with the host when there is one: "Cline in Cursor". */
  label: string;
  file: string | null;
  plan?: ClientSyncPlan;
  /** The whole file could not be planned or written. */
  failed?: string;
  backup?: string;
  /** Sync had created the file and removed its last entry: the file went, and its .bak if this is set. */
  removedFile?: { backup: string | null };
  entries: EntryOutcome[];
}

const whereOf = (result: ClientResult, scope: string): string => `${result.label} (${scope} scope)`;

export function describe(result: ClientResult, scope: string, dryRun: boolean): string {
  const file = foreign(result.file ?? '');
  const done = result.entries.filter((entry) => entry.status !== 'unchanged' && entry.status !== 'failed');
  if (done.length === 0)
    return result.plan?.snapshot.exists === false
      ? `${whereOf(result, scope)}: ${file} is not created (nothing to write into it)`
      : `${whereOf(result, scope)}: ${file} is unchanged`;
  const verbs = { added: 'add', updated: 'update', removed: 'remove' } as Record<string, string>;
  const named = (entries: EntryOutcome[]): string =>
    entries
      .map((entry) => `${dryRun ? `would ${verbs[entry.status]}` : entry.status} '${foreign(entry.name)}'`)
      .join(', ');
  const written = done.filter((entry) => entry.status !== 'removed');
  const removed = done.filter((entry) => entry.status === 'removed');
  const parts = [
    ...(written.length > 0 ? [`${named(written)} in ${file}`] : []),
    ...(removed.length > 0 ? [`${named(removed)} from ${file}`] : []),
  ];
  return `${whereOf(result, scope)}: ${parts.join('; ')}`;
}

const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** What could not be synced, counted: entries, and files that could not be planned or written at all. */
export function notSynced(results: ClientResult[], verb: 'cannot' | 'could not'): string[] {
  const failedFiles = results.filter((r) => r.failed !== undefined).length;
  const failedEntries = results.flatMap((r) => r.entries.filter((e) => e.status === 'failed')).length;
  return [
    ...(failedEntries > 0 ? [`${count(failedEntries, 'entry', 'entries')} ${verb} be synced`] : []),
    ...(failedFiles > 0 ? [`${count(failedFiles, 'file', 'files')} ${verb} be synced`] : []),
  ];
}

/** --check's last line: why the machine is not compliant, counted. */
export function notCompliant(results: ClientResult[]): string {
  const differ = results.filter((r) => r.failed === undefined && r.plan && changesFile(r.plan)).length;
  const reasons = [
    ...(differ > 0 ? [`${count(differ, 'file differs', 'files differ')} from the declaration`] : []),
    ...notSynced(results, 'cannot'),
  ];
  return `not compliant: ${reasons.join(', ')} (--check wrote nothing)`;
}

/** The command that removes an entry sync leaves, so that the next sync writes its own (docs/teams.md). */
function uninstallLine(ctx: Context, result: ClientResult, name: string, declaration: SyncDeclaration): string {
  const word = (arg: string): string => hintWord(arg, ctx.platform);
  const where = declaration.scope === 'project' ? ` --scope project --project-dir ${word(declaration.projectDir)}` : '';
  return `svcctl mcp uninstall --client ${result.client} --name ${word(name)}${where}`;
}

export function reportFailures(ctx: Context, result: ClientResult, declaration: SyncDeclaration): void {
  const where = whereOf(result, declaration.scope);
  if (result.failed !== undefined) ctx.out.warn(`${where}: not synced: ${result.failed}`);
  for (const entry of result.entries) {
    if (entry.status !== 'failed') continue;
    const way = entry.leftInFile
      ? `; to let sync manage it, remove it by hand or with ${foreign(uninstallLine(ctx, result, entry.name, declaration))}, then sync again`
      : '';
    ctx.out.warn(`${where}: '${foreign(entry.name)}' not synced: ${entry.reason ?? ''}${way}`);
  }
}
