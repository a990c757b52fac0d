/** `svcctl mcp doctor`: finds an installed entry and checks it for real, one line per check on stdout with what to do
 * when it fails; --json prints the whole report as one document. Exit 8 when a check fails (a file that does not parse
 * is the failing `file` check), 2 when the entry cannot be found. */
import { DEFAULT_TIMEOUT_SECONDS } from '../core/constants.js';
import type { Context } from '../core/context.js';
import { exitWith, ExitCode } from '../core/errors.js';
import { foreign } from '../core/output.js';
import type { McpEntryOptions } from '../mcp/install/entry-request.js';
import {
  isUnreadable,
  locateEntries,
  locateEntry,
  type LocatedEntry,
  type UnreadableConfig,
} from '../mcp/doctor/locate-entry.js';
import { CLIENTS } from '../mcp/clients/table.js';
import { replacedNote } from './mcp-list.js';
import { clientEnvOf, projectDirOf } from '../mcp/install/entry-request.js';
import { trustOptionsFor } from '../mcp/doctor/project-trust.js';
import { runChecks, unreadableReport } from '../mcp/doctor/run-checks.js';
import type { DoctorReport } from '../mcp/doctor/types.js';

export interface McpDoctorOptions extends McpEntryOptions {
  /** Seconds each connection may take (initialize, tools/list). */
  timeout?: number;
  /** Run a project's entries that svcctl did not write without asking. */
  trustProject?: boolean;
}

export const LABELS: Record<string, string> = {
  file: 'config file',
  policy: 'policy',
  entry: 'entry',
  variables: 'variables',
  node: 'node',
  runner: 'runner',
  initialize: 'initialize',
  tools: 'tools/list',
  trust: 'project entry',
};

/** A check shown but not run is neither a pass nor a failure. */
export const SKIPPED_MARK = '-';

function printReport(ctx: Context, report: DoctorReport): void {
  const { style } = ctx.out;
  // The lines go to stdout: colour them only when stdout, too, is a terminal.
  const paint = ctx.out.stdout.isTTY === true;
  const where = report.client === null ? foreign(report.file) : `${report.client} (${report.scope} scope)`;
  ctx.out.info(
    `Checking '${foreign(report.name)}' of ${where}: ${report.mode === null ? 'mode unknown' : `${report.mode} mode`}`,
  );
  // A check is one line: its detail and fix quote the entry and the server (names, URLs, answers) as they are.
  for (const check of report.checks) {
    const mark = check.skipped
      ? SKIPPED_MARK
      : check.ok
        ? paint
          ? style.green('✓')
          : '✓'
        : paint
          ? style.red('✗')
          : '✗';
    ctx.out.result(`${LABELS[check.name] ?? check.name}: ${foreign(check.detail)}`, { prefix: `${mark} ` });
    if (check.fix !== null) ctx.out.result(`  fix: ${foreign(check.fix)}`);
  }
}

/** ", 2 not run (initialize, tools/list)" when earlier failures stopped some checks; '' otherwise. */
function notRunText(report: DoctorReport): string {
  if (report.mode === null) return ', the others not run (the entry could not be read)';
  if (report.not_run.length === 0) return '';
  return `, ${report.not_run.length} not run (${report.not_run.map((name) => LABELS[name] ?? name).join(', ')})`;
}

export async function checkOne(
  ctx: Context,
  located: LocatedEntry | UnreadableConfig,
  options: McpDoctorOptions,
): Promise<DoctorReport> {
  const trust = await trustOptionsFor(ctx, projectDirOf(ctx, options), options.trustProject, options.package);
  return isUnreadable(located)
    ? unreadableReport(located)
    : await runChecks(ctx, located, (options.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000, trust);
}

/** One client's entry of one name and scope, each in another file: an extension client's hosts. */
const inSeveralHosts = (found: LocatedEntry[]): boolean =>
  found.every(
    (entry) => entry.client === found[0]!.client && entry.scope === found[0]!.scope && entry.name === found[0]!.name,
  ) && new Set(found.map((entry) => entry.file)).size === found.length;

/**
 * Without --client, --name or --config, every matching entry is checked, one block each (as `status --check`); with
 * them, one entry, or the one entry of an extension client in each VS Code host that has it.
 */
export async function runMcpDoctor(ctx: Context, options: McpDoctorOptions): Promise<void> {
  const chosen = options.client !== undefined || options.name !== undefined || options.config !== undefined;
  const found = await locateEntries(ctx, options);
  // Given a client or name, several entries are one entry in the storage of several VS Code hosts (Cline in VS Code
  // and in Cursor), each checked; any other set is refused with locateEntry's list of them.
  if (chosen && found.length > 1 && !inSeveralHosts(found as LocatedEntry[])) await locateEntry(ctx, options);
  if (found.length === 1) return reportOne(ctx, await checkOne(ctx, found[0]!, options), options);
  const reports: DoctorReport[] = [];
  for (const located of found) {
    const report = await checkOne(ctx, located, options);
    reports.push(report);
    if (!ctx.globals.json) {
      printReport(ctx, report);
      ctx.out.result('');
    }
  }
  if (ctx.globals.json) ctx.out.jsonResult(reports);
  const failing = reports.filter((report) => !report.ok).length;
  const summary = `${reports.length} entries checked: ${reports.length - failing} passed, ${failing} failed`;
  if (failing > 0) {
    ctx.out.error(summary, 'check one with --client, --scope and --name (or --config)');
    throw exitWith(ExitCode.CheckFailed);
  }
  if (!ctx.globals.json) ctx.out.success(summary);
}

function reportOne(ctx: Context, report: DoctorReport, options: McpDoctorOptions): void {
  if (ctx.globals.json) ctx.out.jsonResult(report);
  else printReport(ctx, report);
  const replaced = report.client === null ? undefined : replacedNote(CLIENTS[report.client], clientEnvOf(ctx, options));
  if (replaced !== undefined) ctx.out.warn(replaced);
  // Counted over the checks that were run; the ones skipped after a failure are named apart.
  const failed = report.checks.filter((check) => !check.ok).length;
  const run = report.checks.filter((check) => check.skipped !== true).length;
  if (failed > 0) {
    ctx.out.error(`${failed} of ${run} check${run === 1 ? '' : 's'} failed${notRunText(report)}`);
    throw exitWith(ExitCode.CheckFailed);
  }
  if (!ctx.globals.json) ctx.out.success(`all ${run} checks passed${notRunText(report)}`);
}
