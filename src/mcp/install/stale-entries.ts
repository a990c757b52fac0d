import type { Context } from '../../core/context.js';
import { isCliError } from '../../core/errors.js';
import { CLIENTS } from '../clients/table.js';
import { describeStale, otherPlaces, type KnownPlace } from '../clients/versions.js';
import type { Target } from '../clients/render-entry.js';
import type { ClientEnv, Scope } from '../types.js';
import type { PlannedChange } from './apply-plans.js';
import { fileTargetOf, planUninstall } from './install-plan.js';

export interface RemovalTarget {
  target: Target;
  name: string;
  scope: Scope;
}

/** A file there that cannot be read is a warning: it never stops the command. */
export async function removalsElsewhere(
  ctx: Context,
  items: RemovalTarget[],
  clientEnv: ClientEnv,
  config: string | undefined,
  which: 'movable' | 'all',
): Promise<Array<PlannedChange & { stale: KnownPlace }>> {
  if (config !== undefined) return [];
  const removals: Array<PlannedChange & { stale: KnownPlace }> = [];
  for (const { target, name, scope } of items) {
    if (!('client' in target)) continue;
    for (const stale of otherPlaces(CLIENTS[target.client], clientEnv, scope).filter(
      (place) => which === 'all' || place.redundant,
    )) {
      const fileTarget = {
        ...fileTargetOf(target, name, scope, clientEnv, stale.file, ctx),
        entryPath: [...stale.serversPath, name],
      };
      try {
        const plan = await planUninstall(fileTarget);
        if (plan.status === 'removed')
          removals.push({
            plan,
            name,
            mode: null,
            secrets: [],
            reapply: (snapshot) => planUninstall(fileTarget, snapshot),
            stale,
          });
      } catch (error) {
        if (!isCliError(error)) throw error;
        ctx.out.warn(
          `${error.message}: the old '${name}' entry there (read only by ${stale.readBy}) was left as it is`,
        );
      }
    }
  }
  return removals;
}

export const movedNote = (stale: KnownPlace, name: string): string =>
  `${describeStale(stale, name)}: the entry moves there`;
