/**
 * Writes one client's file as `mcp sync` planned it, with install's safety (safe-write.ts: a lock, a temporary file
 * renamed over, a .bak, a file changed meanwhile planned again), then tells the record which entries are svcctl's.
 */
import type { Context } from '../../core/context.js';
import { holdsSecrets, unifiedDiff } from '../../formats/unified-diff.js';
import { updateSafely, type FileSnapshot } from '../../fs/safe-write.js';
import { checkTarget, heldBy } from './install-plan.js';
import type { ClientSyncPlan } from './sync-plan.js';

export interface SyncWrite {
  plan: ClientSyncPlan;
  written: boolean;
  backupPath?: string;
  /** The old file held secrets and sits in a project: no .bak of it (a copy one `git add -A` from a commit). */
  backupWithheld: boolean;
}

export const syncDiff = (plan: ClientSyncPlan): string => unifiedDiff(plan.target.file, plan.before, plan.after, []);

/** `replan`: the same sync planned again on the file as another program left it. */
export async function writeSyncPlan(
  ctx: Context,
  first: ClientSyncPlan,
  replan: (snapshot: FileSnapshot) => Promise<ClientSyncPlan>,
  options: { backup: boolean },
): Promise<SyncWrite> {
  let plan = first;
  const file = first.target.file;
  const withheld = { yes: false };
  const result = await updateSafely(
    file,
    async (snapshot, attempt) => {
      if (attempt === 0) {
        // Looked at again right before the write: a link may have been planted since planning.
        await checkTarget(plan.target);
        return plan.after;
      }
      plan = await replan(snapshot);
      return plan.after === plan.before ? undefined : plan.after;
    },
    {
      first: first.snapshot,
      backup: (snapshot) => {
        if (!options.backup) return false;
        if (plan.target.bounds?.projectRoot === undefined) return true;
        withheld.yes = holdsSecrets(snapshot.path, snapshot.text, ctx.secrets);
        return !withheld.yes;
      },
      heldOpen: { holder: heldBy(first.target) },
      lock: { onWait: () => ctx.out.info(`waiting for another svcctl to finish writing ${file}…`) },
    },
  );
  return {
    plan,
    written: result.written,
    ...(result.backupPath !== undefined ? { backupPath: result.backupPath } : {}),
    backupWithheld: withheld.yes && result.written,
  };
}

/**
 * A file that sync created and whose last entry it now removes goes, with its .bak, as `uninstall` leaves it
 * (created-files.ts): undefined when svcctl did not create it, something else is left in it, or it changed since.
 */
export async function removeEmptiedFile(
  ctx: Context,
  plan: ClientSyncPlan,
): Promise<{ backup: string | null } | undefined> {
  if (!plan.snapshot.exists || !plan.entries.some((entry) => entry.status === 'removed')) return undefined;
  const { createdBySvcctl, isEmptyShell, removeCreatedFile } = await import('./created-files.js');
  if (!isEmptyShell(plan.target, plan.after) || !(await createdBySvcctl(ctx, plan.target.file))) return undefined;
  const removed = await removeCreatedFile(ctx, plan.target, plan.before);
  if (removed === undefined) return undefined;
  const { forgetFile } = await import('./written-entries.js');
  await forgetFile(ctx, plan.target.file).catch(() => undefined);
  return removed;
}

/**
 * One change of each record for every file written: a run killed before it leaves the entries written and not
 * svcctl's (the next sync reports them and leaves them), never the other way round. Not recorded, the entries are
 * only not svcctl's to change later: a state folder that cannot be written fails no sync.
 */
export async function recordSyncWrites(ctx: Context, writes: SyncWrite[]): Promise<void> {
  const done = writes.filter((write) => write.written);
  if (done.length === 0) return;
  const created = done.filter((write) => !write.plan.snapshot.exists).map((write) => write.plan.target.file);
  const [{ recordEntryWrites }, { recordCreatedFiles }] = await Promise.all([
    import('./written-entries.js'),
    import('./created-files.js'),
  ]);
  if (created.length > 0) await recordCreatedFiles(ctx, created).catch(() => undefined);
  await recordEntryWrites(
    ctx,
    done.map(({ plan }) => ({ file: plan.target.file, entries: plan.writes, before: plan.before, after: plan.after })),
  ).catch(() => undefined);
}
