// The checks and their order: docs/mcp.md, "svcctl mcp doctor".
import { withSearchPath } from '../../fs/path-search.js';
import type { Context } from '../../core/context.js';
import { plainHttpRefusal } from '../../config/plain-http.js';
import { createRedactor } from '../../redaction/redaction.js';
import { maskText } from '../../redaction/mask-entry.js';
import { describeStale } from '../clients/versions.js';
import { CLIENTS } from '../clients/table.js';
import { modeOf, SVCCTL_HELPER } from '../service-entries.js';
import { entryRuleFailure, unexpandedCheck, unexpandedReferences } from './client-rules.js';
import { planEntry, type EntryPlan, type HttpPlan } from './entry-plan.js';
import type { HeadersRun } from './headers-command.js';
import type { ClientSpec, Mode, PasteShell } from '../types.js';
import type { LocatedEntry, UnreadableConfig } from './locate-entry.js';
import { referenceSyntaxOf, Resolver } from './references.js';
import type { RuntimeEnv } from './runtime-checks.js';
import { modeChecks } from './mode-checks.js';
import { planSecrets } from './plan-secrets.js';
import { namesVariable } from '../../redaction/secret-names.js';
import { fail, pass, type CheckResult, type DoctorReport } from './types.js';
import { goneCheck, goneSvcctlPaths, type EntryWhere } from './svcctl-paths.js';
import { commandShellFor, commandWords, exportWord, pasteShellOf } from '../render/shell-quote.js';
import { projectTrust, type TrustOptions } from './project-trust.js';
import { runnerFolder } from './runner-folder.js';
import { describeVerdict, POLICY_FIX, policyVerdict } from '../install/policy.js';

const EXPORT_WHERE =
  'in the environment the client starts from (a desktop app started from a dock or start menu may not see variables of a shell profile: start it from that shell, or reinstall with --secrets literal)';

function variablesCheck(resolver: Resolver, who: string, shell: PasteShell): CheckResult {
  const names = [...resolver.referenced].sort();
  const inputs = [...resolver.inputs].map((id) => `\${input:${id}}`);
  const inputNote =
    inputs.length > 0
      ? `; ${inputs.join(', ')} ${inputs.length > 1 ? 'are' : 'is'} asked for by ${who} when the server starts and cannot be checked here`
      : '';
  const missing = names.filter((name) => resolver.missing.has(name));
  if (missing.length > 0) {
    const set = names.filter((name) => !resolver.missing.has(name));
    return fail(
      'variables',
      `not set: ${missing.join(', ')}${set.length > 0 ? ` (set: ${set.join(', ')})` : ''}${inputNote}`,
      `${exportWord(shell)} ${missing.join(' and ')} ${EXPORT_WHERE}`,
    );
  }
  if (names.length === 0) return pass('variables', `the entry references no variables${inputNote}`);
  return pass('variables', `set: ${names.join(', ')}${inputNote}`);
}

const startsProcess = (plan: EntryPlan): boolean => plan.mode !== 'remote' || plan.http.headersCommand !== undefined;

/** Credentials go over plain http only to loopback unless allowed (src/config/plain-http.ts). */
function plainHttpCheck(ctx: Context, plan: EntryPlan): CheckResult | undefined {
  const http = plan.mode === 'remote' || (plan.mode === 'proxy' && !plan.svcctl) ? plan.http : undefined;
  if (http === undefined || (Object.keys(http.headers).length === 0 && http.headersCommand === undefined))
    return undefined;
  const refusal = plainHttpRefusal(ctx, http.url, "the entry's credentials");
  return refusal && fail('initialize', `not tried: ${refusal.message}`, refusal.hint);
}

async function runHelper(http: HttpPlan, name: string, ctx: Context, cwd: string): Promise<HeadersRun | undefined> {
  const { runHeadersCommand } = await import('./headers-command.js');
  const run = await runHeadersCommand(http, name, ctx.env, cwd, ctx.platform);
  if (run?.headers) http.headers = { ...http.headers, ...run.headers };
  return run;
}

/** In order: a run that fails early lists the rest as not run. */
const CHECKS_OF: Record<Mode, string[]> = {
  local: ['file', 'entry', 'variables', 'node', 'runner', 'initialize'],
  remote: ['file', 'entry', 'variables', 'initialize', 'tools'],
  proxy: ['file', 'entry', 'variables', 'node', 'runner', 'initialize', 'tools'],
};

function report(base: Omit<DoctorReport, 'ok' | 'checks' | 'not_run'>, checks: CheckResult[]): DoctorReport {
  const run = new Set(checks.filter((check) => check.skipped !== true).map((check) => check.name));
  const expected = base.mode === null ? ['file', 'entry', 'variables'] : CHECKS_OF[base.mode];
  return { ...base, ok: checks.every((check) => check.ok), checks, not_run: expected.filter((name) => !run.has(name)) };
}

export function unreadableReport(unreadable: UnreadableConfig): DoctorReport {
  const fix = unreadable.position
    ? 'fix the file by hand at that line and column (a missing comma, quote or bracket is the usual cause), then run svcctl mcp doctor again'
    : 'fix the file by hand so that the client can read it, then run svcctl mcp doctor again';
  const { client, scope, file, name } = unreadable;
  return report({ client, scope, file, name, mode: null }, [fail('file', unreadable.problem, fix)]);
}

/** An entry the client skips or cannot be read as any mode: the one failing `entry` check, or undefined. */
function unusableEntry(
  located: LocatedEntry,
  client: ClientSpec | null,
  plan: EntryPlan | string,
): CheckResult | undefined {
  const label = client?.label ?? 'the client';
  if (located.ignoredKey !== undefined) {
    const { ignoredKey, readKey } = located.ignoredKey;
    return fail(
      'entry',
      `'${located.name}': ${label} reads \`${readKey}\`; this file has \`${ignoredKey}\`, which ${label} ignores`,
      `rename \`${ignoredKey}\` to \`${readKey}\` in ${located.file}, or reinstall: svcctl mcp install --client ${located.client ?? '<id>'} --force`,
    );
  }
  if (located.stale !== undefined) {
    const scopeFlag = located.scope === 'user' ? '' : ` --scope ${located.scope}`;
    return fail(
      'entry',
      `${describeStale(located.stale, located.name)}, so ${label} will not load it`,
      `move it: svcctl mcp install --client ${located.client ?? '<id>'}${scopeFlag} (the old entry is removed, the rest of that file kept)`,
    );
  }
  if (typeof plan === 'string')
    return fail(
      'entry',
      `'${located.name}': ${plan}`,
      'reinstall it: svcctl mcp install --force (with the same --client, --mode and --name)',
    );
  return undefined;
}

/** What stops the entry before anything runs (svcctl's helper gone, trust not given, credentials over plain http); else the trust. */
async function gate(
  ctx: Context,
  located: LocatedEntry,
  plan: EntryPlan,
  client: ClientSpec | null,
  resolver: Resolver,
  trust: TrustOptions,
): Promise<CheckResult | 'unasked' | 'allowed'> {
  const where: EntryWhere = { client: located.client, scope: located.scope, mode: plan.mode, name: located.name };
  const headersCommand = plan.mode === 'remote' ? plan.http.headersCommand : undefined;
  const helperLine = headersCommand?.line;
  if (headersCommand !== undefined && helperLine !== undefined && SVCCTL_HELPER.test(helperLine)) {
    const shell = headersCommand.spec.shell ? commandShellFor(ctx.platform) : 'posix';
    const gone = await goneSvcctlPaths(commandWords(helperLine, shell));
    if (gone.length > 0) return goneCheck('headers', gone, where);
  }
  const redactor = createRedactor([...resolver.values, ...planSecrets(plan)]);
  const trusted = await projectTrust(ctx, located, plan, client, redactor, trust);
  if (typeof trusted !== 'string') return trusted;
  return plainHttpCheck(ctx, plan) ?? trusted;
}

interface RunInput {
  located: LocatedEntry;
  plan: EntryPlan;
  resolver: Resolver;
  unexpanded: string[];
  who: string;
  timeoutMs: number;
}

/** Starts or connects to the server; every line of the report, `earlier` included, is redacted of the entry's values. */
async function runEntry(
  ctx: Context,
  input: RunInput,
  trusted: 'unasked' | 'allowed',
  trust: TrustOptions,
  earlier: CheckResult[],
): Promise<CheckResult[]> {
  const { located, plan, resolver } = input;
  // What runs unasked starts outside the project, so that npx takes no registry, config or package from it.
  const cwd = startsProcess(plan) ? (trusted === 'unasked' ? await runnerFolder(ctx) : trust.projectDir) : ctx.cwd;
  if (typeof cwd !== 'string') return [...earlier, cwd];
  // Its PATH without the folders of the project svcctl runs in, nor relative ones: a command found, or started, by
  // name is never the project's (fs/path-search.ts).
  const env = withSearchPath({ env: ctx.env, platform: ctx.platform, cwd: ctx.cwd });
  const runtime: RuntimeEnv = { env, platform: ctx.platform, cwd };
  // A headers command runs first: what it prints is sent, so it is redacted like the rest.
  const helper =
    plan.mode === 'remote' && plan.http.headersCommand !== undefined
      ? await runHelper(plan.http, located.name, ctx, cwd)
      : undefined;
  // The values the entry would send are never shown, in any encoding; those its names say are secrets join the run's
  // known secrets (every line svcctl writes).
  const secrets = planSecrets(plan).filter((value) => !namesVariable(value));
  for (const value of secrets) ctx.secrets.add(value);
  const redactor = createRedactor([...resolver.values, ...secrets].filter((value) => !namesVariable(value)));
  const where: EntryWhere = { client: located.client, scope: located.scope, mode: plan.mode, name: located.name };
  const checks = [...earlier, ...(helper === undefined ? [] : [helper.check])];
  if (helper?.check.ok !== false)
    checks.push(
      ...(await modeChecks(plan, resolver, input.unexpanded, input.who, runtime, input.timeoutMs, redactor, where, {
        client: located.client === null ? null : CLIENTS[located.client],
      })),
    );
  return checks.map((check) => ({
    ...check,
    detail: maskText(redactor.redact(check.detail)),
    fix: check.fix === null ? null : maskText(redactor.redact(check.fix)),
  }));
}

export async function runChecks(
  ctx: Context,
  located: LocatedEntry,
  timeoutMs: number,
  trust: TrustOptions,
): Promise<DoctorReport> {
  const client = located.client === null ? null : CLIENTS[located.client];
  const resolver = new Resolver(ctx.env);
  const plan = planEntry(located.value, referenceSyntaxOf(client), resolver, ctx.env, client);
  const checks: CheckResult[] = [pass('file', `${located.file} parses`)];
  const base = { client: located.client, scope: located.scope, file: located.file, name: located.name };
  // A blocked entry is not started: the client would not start it either.
  const verdict = await policyVerdict(ctx, located.client, located.scope, located.name, located.value);
  const blocked = verdict && fail('policy', describeVerdict(located.name, verdict), POLICY_FIX);
  const unusable = blocked || unusableEntry(located, client, plan);
  if (unusable || typeof plan === 'string') {
    const isObject = located.value !== null && typeof located.value === 'object';
    return report({ ...base, mode: isObject ? modeOf(located.value as object) : 'local' }, [...checks, unusable!]);
  }
  const entry = located.value as Record<string, unknown>;
  const withMode = { ...base, mode: plan.mode };
  const rule = entryRuleFailure(client, located.name, entry, plan);
  if (rule) return report(withMode, [...checks, rule]);
  checks.push(pass('entry', `'${located.name}' found: ${plan.mode} mode (${plan.shape})`));
  const unexpanded = client === null ? [] : unexpandedReferences(client, entry, plan);
  const who = client?.label ?? 'the client';
  checks.push(
    client !== null && unexpanded.length > 0
      ? unexpandedCheck(client, unexpanded)
      : variablesCheck(resolver, who, pasteShellOf(ctx)),
  );
  const trusted = await gate(ctx, located, plan, client, resolver, trust);
  if (typeof trusted !== 'string') return report(withMode, [...checks, trusted]);
  const input = { located, plan, resolver, unexpanded, who, timeoutMs };
  return report(withMode, await runEntry(ctx, input, trusted, trust, checks));
}
