// An uninstall that gives a user's file back byte for byte as the copy svcctl kept when it first wrote there leaves
// nothing for a .bak to hold: that copy goes, and no new one is made (the user's HOME is as it was before svcctl).
import { lstat, readFile, rm } from 'node:fs/promises';
import type { FilePlan } from './install-plan.js';

const backupOf = (plan: FilePlan): string => `${plan.target.file}.bak`;

/** True when the plan removes an entry and the .bak on disk (a plain file) is exactly the text it leaves. */
export async function backupIsRestored(plan: FilePlan): Promise<boolean> {
  if (plan.status !== 'removed' || plan.after === undefined) return false;
  const path = backupOf(plan);
  const stat = await lstat(path).catch(() => undefined);
  if (!stat?.isFile()) return false;
  return (await readFile(path, 'utf8').catch(() => undefined)) === plan.after;
}

export async function removeRestoredBackup(plan: FilePlan): Promise<void> {
  await rm(backupOf(plan), { force: true });
}
