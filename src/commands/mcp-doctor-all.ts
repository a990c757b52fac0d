// `mcp doctor --all`: a project entry svcctl did not write is skipped, never run (docs/mcp.md).
import type { Context } from '../core/context.js';
import { exitWith, ExitCode, usageError } from '../core/errors.js';
import { foreign } from '../core/output.js';
import { locateEntries, type LocatedEntry, type UnreadableConfig } from '../mcp/doctor/locate-entry.js';
import type { DoctorReport } from '../mcp/doctor/types.js';
import { findServiceEntries } from './mcp-list.js';
import { checkOne, LABELS, type McpDoctorOptions } from './mcp-doctor.js';

export type EntryStatus = 'passed' | 'failed' | 'skipped';

export interface CheckedEntry {
  client: DoctorReport['client'];
  scope: DoctorReport['scope'];
  file: string;
  name: string;
  status: EntryStatus;
  /** The first check that failed (for a skipped entry: why it was not run); null when all passed. */
  first_failure: { check: string; detail: string; fix: string | null } | null;
  report: DoctorReport;
}

/** Only the trust check failed: the entry was not run, which says nothing about whether it works. */
const statusOf = (report: DoctorReport): EntryStatus =>
  report.ok ? 'passed' : report.checks.every((check) => check.ok || check.name === 'trust') ? 'skipped' : 'failed';

function checkedEntry(report: DoctorReport): CheckedEntry {
  const status = statusOf(report);
  const failure = report.checks.find((check) => !check.ok);
  const { client, scope, file, name } = report;
  const first_failure = failure ? { check: failure.name, detail: failure.detail, fix: failure.fix } : null;
  return { client, scope, file, name, status, first_failure, report };
}

function lineOf(ctx: Context, entry: CheckedEntry): void {
  const paint = ctx.out.stdout.isTTY === true;
  const { style } = ctx.out;
  const where = `${entry.client ?? 'file'} (${entry.scope}) '${foreign(entry.name)}'`;
  if (entry.status === 'passed') {
    const run = entry.report.checks.filter((check) => check.skipped !== true).length;
    const notRun = entry.report.not_run.length;
    ctx.out.result(`${where}: all ${run} checks passed${notRun === 0 ? '' : `, ${notRun} not run`}`, {
      prefix: paint ? `${style.green('✓')} ` : '✓ ',
    });
    return;
  }
  if (entry.status === 'skipped') {
    const again = `svcctl mcp doctor --client ${entry.client ?? '<id>'} --scope ${entry.scope} --name ${foreign(entry.name)}`;
    ctx.out.result(
      `${where}: skipped: a project's entry svcctl did not write is not run unasked (${foreign(entry.file)}); check it alone, which asks: ${again}`,
      { prefix: '- ' },
    );
    return;
  }
  const failure = entry.first_failure!;
  ctx.out.result(`${where}: ${LABELS[failure.check] ?? failure.check}: ${foreign(failure.detail)}`, {
    prefix: paint ? `${style.red('✗')} ` : '✗ ',
  });
}

/** Every place an entry is found once: two scopes can name one file (a project folder that is the home folder). */
async function entriesToCheck(
  ctx: Context,
  options: McpDoctorOptions,
): Promise<Array<LocatedEntry | UnreadableConfig>> {
  const { entries, warnings } = await findServiceEntries(ctx, options);
  for (const warning of warnings) ctx.out.warn(warning);
  const seen = new Set<string>();
  const found: Array<LocatedEntry | UnreadableConfig> = [];
  for (const listed of entries) {
    const located = await locateEntries(ctx, {
      client: [listed.client],
      scope: listed.scope,
      name: listed.name,
      projectDir: options.projectDir,
      package: options.package,
    });
    for (const entry of located) {
      const key = `${entry.file}\0${entry.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      found.push(entry);
    }
  }
  return found;
}

export async function runMcpDoctorAll(ctx: Context, options: McpDoctorOptions): Promise<void> {
  const chosen = (['client', 'name', 'scope', 'config', 'format'] as const).filter((key) => options[key] !== undefined);
  if (chosen.length > 0)
    throw usageError(
      `--all checks every entry: it takes no --${chosen.join(', --')}`,
      'drop them, or leave out --all to check the entries they choose',
    );
  // Nobody is asked: --all runs in scripts and over many entries, so a project's entry is skipped instead.
  const unasked: Context = { ...ctx, globals: { ...ctx.globals, input: false } };
  const checked: CheckedEntry[] = [];
  for (const located of await entriesToCheck(ctx, options)) {
    const entry = checkedEntry(await checkOne(unasked, located, { ...options, trustProject: false }));
    checked.push(entry);
    if (!ctx.globals.json) lineOf(ctx, entry);
  }
  const count = (status: EntryStatus): number => checked.filter((entry) => entry.status === status).length;
  const summary = {
    checked: checked.length,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
  };
  if (ctx.globals.json) ctx.out.jsonResult({ entries: checked, summary });
  const text = `${summary.checked} ${summary.checked === 1 ? 'entry' : 'entries'} checked: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`;
  if (summary.failed > 0) {
    ctx.out.error(
      text,
      'check one with svcctl mcp doctor --client <id> --scope <scope> --name <name> to see every check',
    );
    throw exitWith(ExitCode.CheckFailed);
  }
  if (ctx.globals.json) return;
  if (summary.checked === 0) ctx.out.info('no MCP client config on this machine has an entry svcctl manages');
  else ctx.out.success(text);
}
