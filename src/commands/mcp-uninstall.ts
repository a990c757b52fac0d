/** `svcctl mcp uninstall`: removes our entry from each chosen client's file with the same safety as install (parse
 * first, backup, temp file + rename, concurrent-change check); everything else in the file stays byte-identical. An
 * entry that is not there is reported and is not an error. */
import { DEFAULT_SERVER_NAME } from '../core/constants.js';
import type { Context } from '../core/context.js';
import { usageError } from '../core/errors.js';
import { applyChanges, planAll, showDryRun, type PlannedChange } from '../mcp/install/apply-plans.js';
import type { FileSnapshot } from '../fs/safe-write.js';
import {
  clientEnvOf,
  describeProjectFolder,
  explicitTargets,
  projectFolderOf,
  scopeFor,
} from '../mcp/install/entry-request.js';
import { fileTargetOf, planUninstall, writesFile } from '../mcp/install/install-plan.js';
import { chooseClients } from '../mcp/install/interactive-choice.js';
import { removalsElsewhere } from '../mcp/install/stale-entries.js';
import type { Target } from '../mcp/clients/render-entry.js';
import type { UninstallAllOptions } from './mcp-uninstall-all.js';

export interface McpUninstallOptions extends UninstallAllOptions {
  backup?: boolean;
  /** --all: every client and scope with an entry for the service (with --name: that name only). */
  all?: boolean;
}

async function chooseTargets(ctx: Context, options: McpUninstallOptions): Promise<Target[]> {
  const targets = explicitTargets(options);
  if (targets.length > 0) return targets;
  if (options.config !== undefined)
    throw usageError('--config needs --client <id> or --format mcpServers|servers|toml');
  const clients = await chooseClients(ctx, clientEnvOf(ctx, options), 'remove the server from');
  return clients.map((client) => ({ client }));
}

/** Removals from one file are planned one after the other, each on the text the one before leaves: the last one then
 * sees the file as the run leaves it (an empty shell or not), and a dry run shows each diff in turn. */
async function planInTurn(changes: PlannedChange[]): Promise<void> {
  const planned = new Map<string, FileSnapshot>();
  for (const change of changes) {
    const earlier = planned.get(change.plan.realFile);
    if (earlier && change.reapply) change.plan = await change.reapply(earlier);
    if (!writesFile(change.plan)) continue;
    const { after, snapshot } = change.plan;
    // Its ino and times are the old file's: the write finds the file changed since and plans once more on what is there.
    planned.set(change.plan.realFile, { ...snapshot, text: after, bytes: Buffer.from(after, 'utf8') });
  }
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
  const { everyEntry, confirmRemoveAll } = await import('./mcp-uninstall-all.js');
  const removals = options.all
    ? await everyEntry(ctx, options)
    : (await chooseTargets(ctx, options)).map((target) => ({ target, name, scope: scopeFor(target, options) }));
  if (removals.length === 0) {
    ctx.out.info('no MCP client has an entry for the service: nothing to remove');
    return;
  }
  const clientEnv = clientEnvOf(ctx, options);
  if (options.config === undefined && removals.some(({ scope }) => scope !== 'user'))
    ctx.out.info(describeProjectFolder(projectFolderOf(ctx, options)));
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
  // The places other versions of the client read: our entry goes from every place svcctl knows.
  const elsewhere = await removalsElsewhere(ctx, removals, clientEnv, options.config, 'all');
  const all = [...changes, ...elsewhere];
  await planInTurn(all);
  await markCreatedFiles(ctx, all);
  if (options.all && !(await confirmRemoveAll(ctx, all, options))) return;
  if (options.dryRun) {
    showDryRun(ctx, all);
    return;
  }
  const reports = await applyChanges(ctx, all, { backup: options.backup !== false });
  if (options.all) await (await import('./mcp-uninstall-all.js')).removeEmptyRecords(ctx);
  if (reports.some((report) => report.status === 'removed')) {
    ctx.out.info('Restart or reload the client so it drops the server.');
  }
}
