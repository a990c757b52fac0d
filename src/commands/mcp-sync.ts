/**
 * `svcctl mcp sync --file FILE`: every named (or detected) client's file holds exactly the declared entries among
 * those svcctl wrote (docs/teams.md). All files are planned first; each changed file is then written once. A file
 * that cannot be planned or an entry that is not svcctl's is reported and the others go on (exit 7 at the end);
 * --check writes nothing and exits 8 when anything would change.
 */
import { canPrompt, type Context } from '../core/context.js';
import { type CliError, exitWith, ExitCode, isCliError, usageError } from '../core/errors.js';
import { foreign, neutralizeControls } from '../core/output.js';
import { CLIENTS } from '../mcp/clients/table.js';
import { hintWord } from '../mcp/render/shell-quote.js';
import { type ClientResult, describe, notCompliant, notSynced, reportFailures } from './mcp-sync-report.js';
import { detectedClientIds } from '../mcp/clients/detection.js';
import { hostLabel } from '../mcp/clients/extension-hosts.js';
import { withEditorHosts } from '../mcp/install/host-targets.js';
import { readDeclaration, type SyncDeclaration } from '../mcp/install/sync-declaration.js';
import { declaredEntries, resolvedDeployments, serverContexts } from '../mcp/install/sync-entries.js';
import { changesFile, planClientSync } from '../mcp/install/sync-plan.js';
import {
  recordSyncWrites,
  removeEmptiedFile,
  syncDiff,
  writeSyncPlan,
  type SyncWrite,
} from '../mcp/install/sync-apply.js';
import type { ClientEnv, ClientId } from '../mcp/types.js';

export interface McpSyncOptions {
  file: string;
  dryRun?: boolean;
  check?: boolean;
  /** false with --no-backup. */
  backup?: boolean;
  /** Approves the declaration's content without a question. */
  yes?: boolean;
}

function clientsOf(ctx: Context, declaration: SyncDeclaration, clientEnv: ClientEnv): ClientId[] {
  if (declaration.clients === 'detected') {
    const detected = detectedClientIds(clientEnv);
    const found = detected.filter((id) => CLIENTS[id].scopes.includes(declaration.scope));
    for (const id of detected.filter((one) => !found.includes(one)))
      ctx.out.info(`${CLIENTS[id].label} was found but has no ${declaration.scope} scope: left out`);
    if (found.length === 0) ctx.out.info(`no MCP client with a ${declaration.scope} scope was found on this machine`);
    return found;
  }
  const without = declaration.clients.filter((id) => !CLIENTS[id].scopes.includes(declaration.scope));
  if (without.length > 0)
    throw usageError(
      `${foreign(declaration.file)}:${declaration.clientsLine}: 'clients' names ${without.map((id) => CLIENTS[id].label).join(', ')}, which ${without.length > 1 ? 'have' : 'has'} no ${declaration.scope} scope`,
      `leave ${without.length > 1 ? 'them' : 'it'} out, or declare them in a file with the other scope`,
    );
  return declaration.clients;
}

/** A file's failure as one warning: what is wrong and what to do, as the same error says in mcp install. */
const withHint = (error: CliError): string => (error.hint ? `${error.message} (${error.hint})` : error.message);

async function planEverything(
  ctx: Context,
  declaration: SyncDeclaration,
  clients: ClientId[],
  clientEnv: ClientEnv,
  ask: boolean,
): Promise<ClientResult[]> {
  const contexts = await serverContexts(ctx, declaration);
  const results: ClientResult[] = [];
  const files = new Map<string, string>();
  // An extension client in several VS Code hosts gets the entries in each, as `mcp install` writes them.
  const targets = await withEditorHosts(
    ctx,
    clients.map((client) => ({ client })),
    clientEnv,
    () => declaration.scope,
    ask,
  );
  for (const target of targets) {
    if (!('client' in target)) continue;
    const { client, host } = target;
    const label = host === undefined ? CLIENTS[client].label : `${CLIENTS[client].label} in ${hostLabel(host)}`;
    const declared = await declaredEntries(contexts, declaration, client);
    try {
      const plan = await planClientSync(ctx, { client, host }, declaration.scope, clientEnv, declared);
      const other = files.get(plan.realFile);
      if (other !== undefined) {
        results.push({ client, host, label, file: plan.target.file, failed: `the same file as ${other}`, entries: [] });
        continue;
      }
      files.set(plan.realFile, label);
      results.push({ client, host, label, file: plan.target.file, plan, entries: plan.entries });
    } catch (error) {
      if (!isCliError(error) || error.exitCode !== ExitCode.UnsafeConfig) throw error;
      results.push({ client, host, label, file: null, failed: withHint(error), entries: [] });
    }
  }
  return results;
}

async function writeOne(
  ctx: Context,
  result: ClientResult,
  declaration: SyncDeclaration,
  options: McpSyncOptions,
): Promise<SyncWrite | undefined> {
  const plan = result.plan;
  if (plan === undefined || !changesFile(plan)) return undefined;
  const clientEnv = clientEnvFor(ctx, declaration);
  const emptied = await removeEmptiedFile(ctx, plan);
  if (emptied !== undefined) {
    result.removedFile = emptied;
    return undefined;
  }
  try {
    const written = await writeSyncPlan(
      ctx,
      plan,
      async (snapshot) => {
        const contexts = await serverContexts(ctx, declaration);
        const declared = await declaredEntries(contexts, declaration, result.client);
        return planClientSync(ctx, result, declaration.scope, clientEnv, declared, snapshot);
      },
      { backup: options.backup !== false },
    );
    result.plan = written.plan;
    result.entries = written.plan.entries;
    if (written.backupPath !== undefined) result.backup = written.backupPath;
    return written;
  } catch (error) {
    if (!isCliError(error) || error.exitCode !== ExitCode.UnsafeConfig) throw error;
    result.failed = withHint(error);
    result.entries = result.entries.map((entry) =>
      entry.status === 'unchanged' || entry.status === 'failed' ? entry : { ...entry, status: 'failed' },
    );
    return undefined;
  }
}

/** The files are different files, each behind its own lock: written side by side, so their fsyncs overlap. */
async function writeAll(
  ctx: Context,
  results: ClientResult[],
  declaration: SyncDeclaration,
  options: McpSyncOptions,
): Promise<void> {
  const writes = await Promise.all(results.map((result) => writeOne(ctx, result, declaration, options)));
  await recordSyncWrites(
    ctx,
    writes.filter((write): write is SyncWrite => write !== undefined),
  );
}

const clientEnvFor = (ctx: Context, declaration: SyncDeclaration): ClientEnv => ({
  homeDir: ctx.homeDir,
  env: ctx.env,
  platform: ctx.platform,
  projectDir: declaration.scope === 'project' ? declaration.projectDir : ctx.cwd,
});

/** With --dry-run or --check, each client's diff too (the compliance report shows what differs). */
function jsonOf(results: ClientResult[], declaration: SyncDeclaration, changed: boolean, looking: boolean): unknown {
  return {
    file: declaration.file,
    scope: declaration.scope,
    changed,
    clients: results.map((result) => ({
      client: result.client,
      ...(result.host === undefined ? {} : { host: result.host }),
      file: result.file,
      status:
        result.failed !== undefined ? 'failed' : result.plan && changesFile(result.plan) ? 'changed' : 'unchanged',
      ...(result.failed !== undefined ? { reason: result.failed } : {}),
      backup: result.backup ?? null,
      file_removed: result.removedFile !== undefined,
      entries: result.entries.map((entry) => ({
        name: entry.name,
        status: entry.status,
        reason: entry.reason ?? null,
      })),
      ...(looking ? { diff: result.plan && changesFile(result.plan) ? syncDiff(result.plan) : null } : {}),
    })),
  };
}

export async function runMcpSync(ctx: Context, options: McpSyncOptions): Promise<void> {
  if (options.dryRun && options.check)
    throw usageError('--dry-run and --check: give one (--check shows the diffs too)');
  const declaration = await readDeclaration(ctx.cwd, options.file);
  const clientEnv = clientEnvFor(ctx, declaration);
  const clients = clientsOf(ctx, declaration, clientEnv);
  if (declaration.scope === 'project')
    ctx.out.info(`project folder: ${foreign(declaration.projectDir)} (the folder holding ${foreign(options.file)})`);
  const ask = canPrompt(ctx) && !options.check && !options.dryRun && !options.yes;
  const results = await planEverything(ctx, declaration, clients, clientEnv, ask);
  const drift = results.some((result) => result.plan !== undefined && changesFile(result.plan));
  const failed = (): boolean =>
    results.some((result) => result.failed !== undefined || result.entries.some((e) => e.status === 'failed'));
  const looking = options.dryRun === true || options.check === true;
  if (!looking && drift) {
    const { approvalSummary, requireApproval } = await import('./mcp-sync-approval.js');
    const contexts = await serverContexts(ctx, declaration);
    const summary = approvalSummary(declaration, contexts, results);
    const removes = results.some((result) => result.entries.some((entry) => entry.status === 'removed'));
    await requireApproval(ctx, declaration, summary, {
      ...options,
      removes,
      deployments: resolvedDeployments(contexts),
    });
  }
  if (looking) {
    for (const result of results) {
      if (result.plan && changesFile(result.plan) && !ctx.globals.json)
        ctx.out.raw(`${neutralizeControls(syncDiff(result.plan))}\n`);
    }
  } else await writeAll(ctx, results, declaration, options);
  for (const result of results) {
    reportFailures(ctx, result, declaration);
    if (result.file === null || result.failed !== undefined) continue;
    const line = describe(result, declaration.scope, looking);
    if (!looking && result.plan && changesFile(result.plan)) ctx.out.success(line);
    else ctx.out.info(line);
    if (result.backup !== undefined) ctx.out.info(`  backup: ${result.backup}`);
    if (result.removedFile !== undefined)
      ctx.out.info(
        `  removed ${foreign(result.file ?? '')}${result.removedFile.backup ? ` and ${foreign(result.removedFile.backup)}` : ''}: svcctl created it and nothing else was left in it`,
      );
  }
  // A write that failed is a result with `failed` set: what changed is what was written, not what was planned.
  const wrote = !looking && results.some((r) => r.failed === undefined && r.plan !== undefined && changesFile(r.plan));
  if (ctx.globals.json) ctx.out.jsonResult(jsonOf(results, declaration, wrote, looking));
  if (!drift && !failed()) ctx.out.info("nothing to change: every client's file holds the declared entries");
  else if (options.dryRun) ctx.out.info('dry run: nothing was written');
  const syncLine = `svcctl mcp sync --file ${hintWord(options.file, ctx.platform)}`;
  if (options.check && (drift || failed())) {
    // A sync cannot fix what the warnings name: only what they say to do, then a sync, can.
    const hint = failed()
      ? `do what the warnings above say for what cannot be synced, then ${syncLine}`
      : `${syncLine} brings the files in line`;
    ctx.out.error(notCompliant(results), foreign(hint));
    throw exitWith(ExitCode.CheckFailed);
  }
  if (failed()) {
    const written = options.dryRun ? '' : wrote ? '; everything else was written' : '; nothing was written';
    ctx.out.error(notSynced(results, 'could not').join(', '), `the warnings above say why and what to do${written}`);
    throw exitWith(ExitCode.UnsafeConfig);
  }
  if (drift && !looking) {
    const writes = results.some((r) => r.entries.some((e) => e.status === 'added' || e.status === 'updated'));
    ctx.out.info(`Restart or reload the clients so they ${writes ? 'read the new entries' : 'drop the removed ones'}.`);
  }
}
