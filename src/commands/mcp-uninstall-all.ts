// `mcp uninstall --all` reaches past --client: it lists all, then asks (architecture.md "mcp uninstall --all").
import { lstat, readdir, readFile, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { optionalBaseUrl, optionalMcpUrl } from '../config/base-url.js';
import { canPrompt, type Context } from '../core/context.js';
import { usageError } from '../core/errors.js';
import { foreign } from '../core/output.js';
import type { PlannedChange } from '../mcp/install/apply-plans.js';
import type { McpEntryOptions } from '../mcp/install/entry-request.js';
import type { RemovalTarget } from '../mcp/install/stale-entries.js';
import { entryUrl, forAnotherDeployment } from '../mcp/service-entries.js';
import { maskUrl } from '../redaction/mask-entry.js';

export interface UninstallAllOptions extends McpEntryOptions {
  dryRun?: boolean;
  yes?: boolean;
}

/** The entries `mcp list` finds (in places the clients read; stale places are cleaned with them). */
export async function everyEntry(ctx: Context, options: UninstallAllOptions): Promise<RemovalTarget[]> {
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

function lineOf(change: PlannedChange, current: { mcpUrl?: string; baseUrl?: string }): string {
  const { target } = change.plan;
  const url = entryUrl(change.plan.existing);
  const shownUrl =
    url === undefined
      ? 'no URL written'
      : `${foreign(maskUrl(url))}${forAnotherDeployment(url, current) ? ' (other deployment)' : ''}`;
  return `  ${target.clientId ?? target.label} (${target.scope} scope): '${foreign(change.name)}' → ${shownUrl}, in ${target.file}`;
}

/** Lists what goes; true when it may go (a "no" at the prompt is the user's choice: exit 0, nothing removed). */
export async function confirmRemoveAll(
  ctx: Context,
  changes: PlannedChange[],
  options: UninstallAllOptions,
): Promise<boolean> {
  const going = changes.filter((change) => change.plan.status === 'removed');
  if (going.length === 0) return true;
  const current = { mcpUrl: optionalMcpUrl(ctx), baseUrl: optionalBaseUrl(ctx) };
  const count = going.length === 1 ? 'this entry' : `these ${going.length} entries`;
  ctx.out.info(`--all ${options.dryRun ? 'would remove' : 'removes'} ${count}:`);
  for (const change of going) ctx.out.info(lineOf(change, current));
  if (options.dryRun || options.yes || ctx.globals.quiet || !canPrompt(ctx)) return true;
  const { promptConfirm } = await import('../core/prompts.js');
  if (await promptConfirm(ctx, `Remove ${count}?`, false)) return true;
  ctx.out.info('cancelled: nothing was removed');
  return false;
}

/** A record of svcctl's state that says nothing, or the doctor's runner folder with only its own package.json. */
async function emptyRecord(path: string): Promise<boolean> {
  const info = await lstat(path).catch(() => undefined);
  if (!info?.isFile()) return false;
  try {
    const record = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    return ['files', 'folders', 'entries'].every((key) => !Array.isArray(record[key]) || record[key].length === 0);
  } catch {
    return false;
  }
}

/** After --all, svcctl's records of what it wrote are removed when nothing is left in them, and the runner folder
 * doctor made when it holds only its own manifest: an uninstall of everything leaves none of svcctl's traces. */
export async function removeEmptyRecords(ctx: Context): Promise<void> {
  const [{ createdFilesPath }, { writtenEntriesPath }, { runnerFolderPath, RUNNER_MANIFEST }, { withFileLock }] =
    await Promise.all([
      import('../mcp/install/created-files.js'),
      import('../mcp/install/written-entries.js'),
      import('../mcp/doctor/runner-folder.js'),
      import('../fs/file-lock.js'),
    ]);
  for (const path of [createdFilesPath(ctx), writtenEntriesPath(ctx)])
    await withFileLock(path, {}, async () => {
      if (await emptyRecord(path)) await rm(path);
    }).catch(() => undefined);
  const runner = runnerFolderPath(ctx);
  const left = await readdir(runner).catch(() => undefined);
  const manifest = join(runner, 'package.json');
  if (left?.length !== 1 || left[0] !== 'package.json') return;
  if ((await readFile(manifest, 'utf8').catch(() => '')) !== RUNNER_MANIFEST) return;
  await rm(manifest);
  await rmdir(runner).catch(() => undefined);
}
