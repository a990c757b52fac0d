/**
 * `svcctl mcp uninstall`: removes our entry from each chosen client's file
 * with the same safety as install (parse first, backup, temp file + rename,
 * concurrent-change check); everything else in the file stays byte-identical.
 * An entry that is not there is reported and is not an error.
 */
import { DEFAULT_SERVER_NAME } from '../core/constants.js';
import type { Context } from '../core/context.js';
import { usageError } from '../core/errors.js';
import { applyChanges, planAll, showDryRun, type PlannedChange } from '../mcp/install/apply-plans.js';
import type { FileSnapshot } from '../fs/safe-write.js';
import { clientEnvOf, explicitTargets, scopeFor, type McpEntryOptions } from '../mcp/install/entry-request.js';
import { fileTargetOf, planUninstall } from '../mcp/install/install-plan.js';
import { chooseClients } from '../mcp/install/interactive-choice.js';
import { removalsElsewhere } from '../mcp/install/stale-entries.js';
import type { Target } from '../mcp/clients/render-entry.js';
import type { Scope } from '../mcp/types.js';

export interface McpUninstallOptions extends McpEntryOptions {
  dryRun?: boolean;
  backup?: boolean;
  /** --all: every client and scope with an entry for the service (with --name: that name only). */
  all?: boolean;
}

interface Removal {
  target: Target;
  name: string;
  scope: Scope;
}

/** --all: the entries `mcp list` finds (in places the clients read; stale places are cleaned with them). */
async function everyEntry(ctx: Context, options: McpUninstallOptions): Promise<Removal[]> {
  if (options.client !== undefined || options.config !== undefined)
    throw usageError('--all removes the entry from every client: give it without --client or --config');
  const { findServiceEntries } = await import('./mcp-list.js');
  const { entries } = await findServiceEntries(ctx, options);
  const seen = new Set<string>();
  return entries.flatMap((entry) => {
    const key = [entry.client, entry.scope, entry.name].join('\0');
    if (
      entry.stale ||
      seen.has(key) ||
      (options.scope !== undefined && entry.scope !== options.scope) ||
      (options.name !== undefined && entry.name !== options.name)
    )
      return [];
    seen.add(key);
    return [{ target: { client: entry.client }, name: entry.name, scope: entry.scope }];
  });
}

async function chooseTargets(ctx: Context, options: McpUninstallOptions): Promise<Target[]> {
  const targets = explicitTargets(options);
  if (targets.length > 0) return targets;
  if (options.config !== undefined)
    throw usageError('--config needs --client <id> or --format mcpServers|servers|toml');
  const clients = await chooseClients(ctx, clientEnvOf(ctx, options), 'remove the server from');
  return clients.map((client) => ({ client }));
}

/** A file svcctl created (its record says so) that would be left as an empty shell is removed instead. */
async function markCreatedFiles(ctx: Context, changes: PlannedChange[]): Promise<void> {
  const removing = changes.filter((change) => change.plan.status === 'removed');
  if (removing.length === 0) return;
  const { createdBySvcctl, isEmptyShell } = await import('../mcp/install/created-files.js');
  for (const change of removing)
    change.removeFile =
      isEmptyShell(change.plan.target, change.plan.after) && (await createdBySvcctl(ctx, change.plan.target.file));
}

export async function runMcpUninstall(ctx: Context, options: McpUninstallOptions): Promise<void> {
  const name = options.name ?? DEFAULT_SERVER_NAME;
  const removals = options.all
    ? await everyEntry(ctx, options)
    : (await chooseTargets(ctx, options)).map((target) => ({ target, name, scope: scopeFor(target, options) }));
  if (removals.length === 0) {
    ctx.out.info('no MCP client has an entry for the service: nothing to remove');
    return;
  }
  const clientEnv = clientEnvOf(ctx, options);
  const changes = await planAll(ctx, removals, async ({ target, name, scope }) => {
    const fileTarget = fileTargetOf(target, name, scope, clientEnv, options.config, ctx);
    // confirm: read back after the write, so an entry that a lock-less client writes back is removed again.
    return {
      plan: await planUninstall(fileTarget),
      name,
      mode: null,
      secrets: [],
      reapply: (snapshot: FileSnapshot) => planUninstall(fileTarget, snapshot),
      confirm: true,
    };
  });
  await markCreatedFiles(ctx, changes);
  // The places other versions of the client read: our entry goes from every place svcctl knows.
  const elsewhere = await removalsElsewhere(ctx, removals, clientEnv, options.config, 'all');
  const all = [...changes, ...elsewhere];
  if (options.dryRun) {
    showDryRun(ctx, all);
    return;
  }
  const reports = await applyChanges(ctx, all, { backup: options.backup !== false });
  if (reports.some((report) => report.status === 'removed')) {
    ctx.out.info('Restart or reload the client so it drops the server.');
  }
}
