/**
 * Entries in files that no installed version of their client reads (a client
 * that moved its file between versions, clients/versions.ts). `mcp install`
 * moves such an entry: it writes the new file and removes ours from the old
 * one, keeping the rest of that file; `mcp uninstall` removes it from every
 * file it knows.
 */
import type { Context } from '../../context.js';
import { isCliError } from '../../errors.js';
import { CLIENTS } from '../clients/table.js';
import { describeStale, staleFiles, type StaleFile } from '../clients/versions.js';
import type { Target } from '../render/render-entry.js';
import type { ClientEnv, Scope } from '../types.js';
import type { PlannedChange } from './apply-plans.js';
import { fileTargetOf, planUninstall } from './install-plan.js';

export interface StaleTarget {
  target: Target;
  name: string;
  scope: Scope;
}

/**
 * Removals of our entry from the stale files of each target (none with --config).
 * A stale file that cannot be read is a warning: it never stops the install.
 */
export async function staleRemovals(ctx: Context, items: StaleTarget[], clientEnv: ClientEnv, config: string | undefined): Promise<Array<PlannedChange & { stale: StaleFile }>> {
  if (config !== undefined) return [];
  const removals: Array<PlannedChange & { stale: StaleFile }> = [];
  for (const { target, name, scope } of items) {
    if (!('client' in target)) continue;
    for (const stale of staleFiles(CLIENTS[target.client], clientEnv, scope)) {
      const fileTarget = { ...fileTargetOf(target, name, scope, clientEnv, stale.file, ctx), entryPath: [...stale.serversPath, name] };
      try {
        const plan = await planUninstall(fileTarget);
        if (plan.status === 'removed') removals.push({ plan, name, mode: null, secrets: [], reapply: (snapshot) => planUninstall(fileTarget, snapshot), stale });
      } catch (error) {
        if (!isCliError(error)) throw error;
        ctx.out.warn(`${error.message}: the old '${name}' entry there (read only by ${stale.readBy}) was left as it is`);
      }
    }
  }
  return removals;
}

/** One line saying why an entry moves. */
export const movedNote = (stale: StaleFile, name: string): string => `${describeStale(stale, name)}: the entry moves there`;
