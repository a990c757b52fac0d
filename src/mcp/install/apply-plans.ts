import type { Context } from '../../core/context.js';
import { CliError, ExitCode, exitWith, isCliError } from '../../core/errors.js';
import { foreign, neutralizeControls } from '../../core/output.js';
import {
  changedOnDisk,
  readSnapshot,
  updateSafely,
  type FileSnapshot,
  type UpdateResult,
} from '../../fs/safe-write.js';
import { tidyAfterKilledRuns } from '../../fs/leftover-temps.js';
import { holdsSecrets, unifiedDiff } from '../../formats/unified-diff.js';
import { checkTarget, heldBy, openDocument, writesFile, type FilePlan, type PlanStatus } from './install-plan.js';
import { BackupNotes } from './backup-notes.js';
import { backupIsRestored, removeRestoredBackup } from './restored-backup.js';
import type { Mode } from '../types.js';

export interface PlannedChange {
  plan: FilePlan;
  name: string;
  mode: Mode | null;
  secrets: string[];
  fileMode?: number;
  /** Unset when the user confirmed this very diff at a prompt: a file changed since is then left alone (exit 7). */
  reapply?: (snapshot: FileSnapshot) => Promise<FilePlan>;
  confirm?: boolean;
  /** Uninstall: svcctl created the file and the removal leaves only its empty shell, so the file goes. */
  removeFile?: boolean;
}

export interface ChangeReport {
  client: string | null;
  scope: string;
  file: string;
  name: string;
  mode: Mode | null;
  status: PlanStatus;
  backup: string | null;
}

const DONE: Record<PlanStatus, string> = {
  created: 'created',
  added: 'added',
  updated: 'updated',
  replaced: 'replaced',
  conflict: 'conflict',
  unchanged: 'unchanged',
  removed: 'removed',
  absent: 'not found',
};

const WOULD: Record<PlanStatus, string> = {
  ...DONE,
  created: 'would create',
  added: 'would add',
  updated: 'would update',
  replaced: 'would replace',
  removed: 'would remove',
};

export function describeChange(change: PlannedChange, dryRun: boolean): string {
  const { plan } = change;
  const name = foreign(change.name);
  const verb = (dryRun ? WOULD : DONE)[plan.status];
  const where = `${plan.target.label}${plan.target.clientId ? ` (${plan.target.scope} scope)` : ''}`;
  // A config reached through a link (dotfiles managers): say which file really changes.
  const file =
    plan.realFile === plan.target.file
      ? foreign(plan.target.file)
      : `${foreign(plan.target.file)} (a link to ${foreign(plan.realFile)})`;
  if (plan.status === 'unchanged') return `${where}: '${name}' in ${file} is unchanged`;
  if (plan.status === 'conflict')
    return `${where}: '${name}' in ${file} differs from what svcctl would write (--force replaces it whole)`;
  if (plan.status === 'absent') return `${where}: no entry '${name}' in ${file}`;
  if (plan.status === 'created') return `${where}: ${verb} ${file} with '${name}'`;
  const preposition = plan.status === 'removed' ? 'from' : 'in';
  return `${where}: ${verb} '${name}' ${preposition} ${file}`;
}

function fileRemovalNote(change: PlannedChange, dryRun: boolean, backup?: string | null): string {
  const file = change.plan.target.file;
  return dryRun
    ? `  would remove ${file}: svcctl created it and nothing else would be left in it`
    : `  removed ${file}${backup ? ` and ${backup}` : ''}: svcctl created it and nothing else was left in it`;
}

export function diffOf(change: PlannedChange): string {
  const { plan } = change;
  return unifiedDiff(plan.target.file, plan.before, plan.after, change.secrets);
}

function reportOf(change: PlannedChange, backup: string | undefined): ChangeReport {
  const { plan } = change;
  return {
    client: plan.target.clientId ?? null,
    scope: plan.target.scope,
    file: plan.target.file,
    name: change.name,
    mode: change.mode,
    status: plan.status,
    backup: backup ?? null,
  };
}

const hasDiff = (change: PlannedChange): boolean => change.plan.after !== change.plan.before;

/** A conflict (without --force) shows its diff too and ends with exit 7, as the real run would. */
export function showDryRun(ctx: Context, changes: PlannedChange[]): void {
  for (const change of changes) {
    if (!ctx.globals.json && hasDiff(change)) ctx.out.raw(`${neutralizeControls(diffOf(change))}\n`);
    ctx.out.info(describeChange(change, true));
    if (change.removeFile) ctx.out.info(fileRemovalNote(change, true));
  }
  if (ctx.globals.json) {
    ctx.out.jsonResult(
      changes.map((change) => ({ ...reportOf(change, undefined), diff: hasDiff(change) ? diffOf(change) : null })),
    );
  }
  ctx.out.info('dry run: nothing was written');
  if (changes.some((change) => change.plan.status === 'conflict')) throw exitWith(ExitCode.UnsafeConfig);
}

/** A failure on one file is reported and the others still go on; the exit is then 7. */
export async function applyChanges(
  ctx: Context,
  changes: PlannedChange[],
  options: { backup: boolean },
): Promise<ChangeReport[]> {
  const reports: ChangeReport[] = [];
  let failed = false;
  const backups = new BackupNotes((line) => ctx.out.info(line));
  for (const change of changes) {
    backups.next(change.plan.target.file);
    if (!writesFile(change.plan)) {
      await tidyAfterKilledRuns(change.plan.target.file);
      ctx.out.info(describeChange(change, false));
      reports.push(reportOf(change, undefined));
      continue;
    }
    if (change.removeFile) {
      const { removeCreatedFile } = await import('./created-files.js');
      const removed = await removeCreatedFile(ctx, change.plan.target, change.plan.before);
      if (removed) {
        backups.removed(removed.backup);
        await forgetWrites(ctx, change.plan.target.file);
        ctx.out.success(describeChange(change, false));
        ctx.out.info(fileRemovalNote(change, false, removed.backup));
        reports.push(reportOf(change, undefined));
        continue;
      }
    }
    try {
      const folders = await foldersToMake(change);
      const restored = await backupIsRestored(change.plan);
      const result = await writeChange(ctx, change, { backup: options.backup && !restored });
      if (restored && result.written) await removeRestoredBackup(change.plan);
      if (result.written && change.plan.status === 'created') await remember(ctx, change.plan.target.file, folders);
      // Recorded while the read-back waits; again if the read-back had to write the change a second time.
      const written = change.plan;
      const recorded = result.written ? recordWrite(ctx, written) : undefined;
      if (change.confirm && change.reapply) await confirmWritten(ctx, change, options);
      await recorded;
      if (result.written && change.plan !== written) await recordWrite(ctx, change.plan);
      if (result.written) ctx.out.success(describeChange(change, false));
      else ctx.out.info(describeChange(change, false));
      if (result.backupPath) backups.hold(change.plan.target.file, result.backupPath);
      else if (result.backupWithheld)
        ctx.out.info(
          `  no backup: the old file holds secrets, and a copy (${change.plan.target.file}.bak) would stay in the project folder`,
        );
      reports.push(reportOf(change, result.backupPath));
    } catch (error) {
      if (!isCliError(error) || error.exitCode !== ExitCode.UnsafeConfig) throw error;
      failed = true;
      ctx.out.error(error.message, error.hint);
    }
  }
  backups.release();
  if (ctx.globals.json) ctx.out.jsonResult(reports);
  if (failed) throw exitWith(ExitCode.UnsafeConfig);
  return reports;
}

/** Not recorded, the file is only never removed by uninstall: a state folder that cannot be written fails no install. */
async function remember(ctx: Context, file: string, folders: string[]): Promise<void> {
  const { recordCreated } = await import('./created-files.js');
  await recordCreated(ctx, file, folders).catch(() => undefined);
}

/** Asked before the write makes them: afterwards a folder svcctl made and one the user had look the same. */
async function foldersToMake(change: PlannedChange): Promise<string[]> {
  if (change.plan.status !== 'created') return [];
  const { missingFolders } = await import('./created-files.js');
  return missingFolders(change.plan.target.file).catch(() => []);
}

/** Not recorded, the entry is only asked about by doctor: a state folder that cannot be written fails no write. */
async function recordWrite(ctx: Context, plan: FilePlan): Promise<void> {
  const { target, before, after, status } = plan;
  const { recordEntryWrite } = await import('./written-entries.js');
  try {
    const value =
      status === 'removed'
        ? undefined
        : openDocument(target.format, after, target.file, target.client).get(target.entryPath);
    await recordEntryWrite(ctx, { file: target.file, entryPath: target.entryPath, value, before, after });
  } catch {
    // The write itself succeeded; doctor asks about the entry as it would about a project's.
  }
}

async function forgetWrites(ctx: Context, file: string): Promise<void> {
  const { forgetFile } = await import('./written-entries.js');
  await forgetFile(ctx, file).catch(() => undefined);
}

async function confirmWritten(ctx: Context, change: PlannedChange, options: { backup: boolean }): Promise<void> {
  const { confirmEntryStays } = await import('./confirm-entry.js');
  const want = change.plan.status === 'removed' ? 'absent' : 'present';
  const redo = async (): Promise<void> => {
    change.plan = await change.reapply!(await readSnapshot(change.plan.target.file));
    if (writesFile(change.plan)) await writeChange(ctx, change, { ...options, backup: false });
  };
  await confirmEntryStays(ctx, () => change.plan, change.name, redo, want);
}

/** No .bak of a project file holding secrets: the copy would sit one `git add -A` from a commit. */
function backupRule(
  ctx: Context,
  change: PlannedChange,
  asked: boolean,
  withheld: { yes: boolean },
): (snapshot: FileSnapshot) => boolean {
  return (snapshot) => {
    if (!asked) return false;
    if (change.plan.target.bounds?.projectRoot === undefined) return true;
    withheld.yes = holdsSecrets(snapshot.path, snapshot.text, ctx.secrets, change.secrets);
    return !withheld.yes;
  };
}

async function writeChange(
  ctx: Context,
  change: PlannedChange,
  options: { backup: boolean },
): Promise<UpdateResult & { backupWithheld: boolean }> {
  const file = change.plan.target.file;
  const withheld = { yes: false };
  const result = await updateSafely(
    file,
    async (snapshot, attempt) => {
      // Looked at again right before the write: a link may have been planted since planning.
      if (attempt === 0) {
        await checkTarget(change.plan.target);
        return change.plan.after;
      }
      if (!change.reapply) throw changedOnDisk(file);
      change.plan = await change.reapply(snapshot);
      if (change.plan.status === 'conflict') {
        throw new CliError(
          ExitCode.UnsafeConfig,
          `${file} changed meanwhile and now has a different '${change.name}' entry; nothing was written`,
          {
            hint: 'look at the file, then run the command again (--force replaces the entry whole)',
          },
        );
      }
      return writesFile(change.plan) ? change.plan.after : undefined;
    },
    {
      first: change.plan.snapshot,
      backup: backupRule(ctx, change, options.backup, withheld),
      mode: change.fileMode,
      heldOpen: { holder: heldBy(change.plan.target) },
      lock: { onWait: () => ctx.out.info(`waiting for another svcctl to finish writing ${file}…`) },
    },
  );
  return { ...result, backupWithheld: withheld.yes && result.written };
}

/** A file that does not parse or cannot be read stops the run before any write. */
export async function planAll<T>(
  ctx: Context,
  items: T[],
  plan: (item: T) => Promise<PlannedChange>,
): Promise<PlannedChange[]> {
  const changes: PlannedChange[] = [];
  const problems: CliError[] = [];
  for (const item of items) {
    try {
      changes.push(await plan(item));
    } catch (error) {
      if (!isCliError(error) || error.exitCode !== ExitCode.UnsafeConfig) throw error;
      problems.push(error);
    }
  }
  if (problems.length === 0) return changes;
  for (const problem of problems) ctx.out.error(`${problem.message}; nothing was written`, problem.hint);
  throw exitWith(ExitCode.UnsafeConfig);
}
