// The checks and their order: docs/mcp.md, "svcctl mcp doctor".
import type { Context } from '../../core/context.js';
import { plainHttpRefusal } from '../../config/plain-http.js';
import { createRedactor, type Redactor } from '../../redaction/redaction.js';
import { maskText } from '../../redaction/mask-entry.js';
import { describeStale } from '../clients/versions.js';
import { CLIENTS } from '../clients/table.js';
import { modeOf, SVCCTL_HELPER } from '../service-entries.js';
import { entryRuleFailure, unexpandedCheck, unexpandedReferences } from './client-rules.js';
import { planEntry, type EntryPlan, type HttpPlan } from './entry-plan.js';
import type { HeadersRun } from './headers-command.js';
import type { ClientSpec, Mode } from '../types.js';
import { caCertsCheck, guiRunnerCheck, startRuntime } from './start-environment.js';
import type { LocatedEntry, UnreadableConfig } from './locate-entry.js';
import { referenceSyntaxOf, Resolver } from './references.js';
import { checkNode, checkRunner, type RuntimeEnv } from './runtime-checks.js';
import { planSecrets } from './plan-secrets.js';
import { namesVariable } from '../../redaction/secret-names.js';
import { fail, pass, type CheckResult, type DoctorReport } from './types.js';
import { goneCheck, goneSvcctlPaths, type EntryWhere } from './svcctl-paths.js';
import { commandShellFor, commandWords } from '../render/shell-quote.js';
import { projectTrust, type TrustOptions } from './project-trust.js';
import { runnerFolder } from './runner-folder.js';

const EXPORT_WHERE =
  'in the environment the client starts from (a desktop app started from a dock or start menu may not see variables of a shell profile: start it from that shell, or reinstall with --secrets literal)';

function variablesCheck(resolver: Resolver, who: string): CheckResult {
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
      `export ${missing.join(' and ')} ${EXPORT_WHERE}`,
    );
  }
  if (names.length === 0) return pass('variables', `the entry references no variables${inputNote}`);
  return pass('variables', `set: ${names.join(', ')}${inputNote}`);
}

/** An unexpanded reference, a missing variable or a VS Code input would make a connection's result meaningless. */
function blocker(resolver: Resolver, unexpanded: string[], who: string): CheckResult | undefined {
  if (unexpanded.length > 0)
    return fail(
      'initialize',
      `not tried: ${unexpanded.map((text) => `'${text}'`).join(', ')} would reach the server literally`,
      'fix the references (see variables above) and run doctor again',
    );
  const missing = [...resolver.missing].sort();
  if (missing.length > 0)
    return fail(
      'initialize',
      `not tried: ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not set`,
      `export ${missing.join(', ')} and run doctor again`,
    );
  if (resolver.inputs.size > 0)
    return pass(
      'initialize',
      `not checked: the entry takes its values from ${who}'s inputs, which only ${who} can ask for`,
    );
  return undefined;
}

async function modeChecks(
  plan: EntryPlan,
  resolver: Resolver,
  unexpanded: string[],
  who: string,
  runtime: RuntimeEnv,
  timeoutMs: number,
  redactor: Redactor,
  where: EntryWhere,
  client: ClientSpec | null,
): Promise<CheckResult[]> {
  if (plan.mode === 'remote') {
    const blocked = blocker(resolver, unexpanded, who);
    if (blocked) return [blocked];
    const { probeHttpServer } = await import('./http-probe.js');
    return probeHttpServer(plan.http, { timeoutMs, redactor, env: runtime.env });
  }
  const start = startRuntime(runtime, client, plan.command);
  const runner =
    (await guiRunnerCheck(plan.command, start, runtime, client)) ?? (await checkRunner(plan.command, start));
  const ca = caCertsCheck(plan.command, runtime.env, client);
  const checks = [await checkNode(start), runner, ...(ca === undefined ? [] : [ca])];
  const blocked = blocker(resolver, unexpanded, who);
  if (plan.mode === 'local') {
    if (!checks[1]!.ok)
      return [...checks, fail('initialize', 'not tried: the command is not on PATH', checks[1]!.fix!)];
    if (blocked) return [...checks, blocked];
    const { probeStdioServer } = await import('./stdio-probe.js');
    const options = { env: start.env, cwd: runtime.cwd, timeoutMs, redactor };
    return [...checks, ...(await probeStdioServer(plan.command, options))];
  }
  if (plan.svcctl) {
    const gone = await goneSvcctlPaths([plan.command.command, ...plan.command.args]);
    if (gone.length > 0)
      return [
        checks[0]!,
        goneCheck('runner', gone, where),
        fail('initialize', 'not tried: the svcctl the entry runs is gone', 'see runner above'),
      ];
    if (!checks[1]!.ok)
      return [...checks, fail('initialize', 'not tried: the command is not on PATH', checks[1]!.fix!)];
    if (blocked) return [...checks, blocked];
    const { probeStdioServer } = await import('./stdio-probe.js');
    return [
      ...checks,
      ...(await probeStdioServer(plan.command, {
        env: start.env,
        cwd: runtime.cwd,
        timeoutMs,
        redactor,
        listTools: true,
      })),
    ];
  }
  if (plan.http === undefined) {
    return [
      ...checks,
      fail(
        'initialize',
        'the mcp-remote arguments hold no http(s) URL',
        'reinstall the entry: svcctl mcp install --mode proxy --force',
      ),
    ];
  }
  if (blocked) return [...checks, blocked];
  const { probeHttpServer } = await import('./http-probe.js');
  return [
    ...checks,
    ...(await probeHttpServer(plan.http, {
      timeoutMs,
      redactor,
      env: runtime.env,
      note: 'checked the URL the proxy forwards to',
    })),
  ];
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
  const run = await runHeadersCommand(http, name, ctx.env, cwd);
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
  const run = new Set(checks.map((check) => check.name));
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
  const isObject = located.value !== null && typeof located.value === 'object';
  if (located.ignoredKey !== undefined) {
    const { ignoredKey, readKey } = located.ignoredKey;
    checks.push(
      fail(
        'entry',
        `'${located.name}': ${client?.label ?? 'the client'} reads \`${readKey}\`; this file has \`${ignoredKey}\`, which ${client?.label ?? 'the client'} ignores`,
        `rename \`${ignoredKey}\` to \`${readKey}\` in ${located.file}, or reinstall: svcctl mcp install --client ${located.client ?? '<id>'} --force`,
      ),
    );
    return report({ ...base, mode: isObject ? modeOf(located.value as object) : 'local' }, checks);
  }
  if (located.stale !== undefined) {
    const scopeFlag = located.scope === 'user' ? '' : ` --scope ${located.scope}`;
    checks.push(
      fail(
        'entry',
        `${describeStale(located.stale, located.name)}, so ${client?.label ?? 'the client'} will not load it`,
        `move it: svcctl mcp install --client ${located.client ?? '<id>'}${scopeFlag} (the old entry is removed, the rest of that file kept)`,
      ),
    );
    return report({ ...base, mode: isObject ? modeOf(located.value as object) : 'local' }, checks);
  }
  if (typeof plan === 'string') {
    checks.push(
      fail(
        'entry',
        `'${located.name}': ${plan}`,
        'reinstall it: svcctl mcp install --force (with the same --client, --mode and --name)',
      ),
    );
    return report({ ...base, mode: isObject ? modeOf(located.value as object) : 'local' }, checks);
  }
  const entry = located.value as Record<string, unknown>;
  const rule = entryRuleFailure(client, located.name, entry, plan);
  if (rule) return report({ ...base, mode: plan.mode }, [...checks, rule]);
  checks.push(pass('entry', `'${located.name}' found: ${plan.mode} mode (${plan.shape})`));
  const unexpanded = client === null ? [] : unexpandedReferences(client, entry, plan);
  checks.push(
    client !== null && unexpanded.length > 0
      ? unexpandedCheck(client, unexpanded)
      : variablesCheck(resolver, client?.label ?? 'the client'),
  );
  const where: EntryWhere = { client: located.client, scope: located.scope, mode: plan.mode, name: located.name };
  const headersCommand = plan.mode === 'remote' ? plan.http.headersCommand : undefined;
  const helperLine = headersCommand?.line;
  if (headersCommand !== undefined && helperLine !== undefined && SVCCTL_HELPER.test(helperLine)) {
    const shell = headersCommand.spec.shell ? commandShellFor(ctx.platform) : 'posix';
    const gone = await goneSvcctlPaths(commandWords(helperLine, shell));
    if (gone.length > 0) return report({ ...base, mode: plan.mode }, [...checks, goneCheck('headers', gone, where)]);
  }
  const trusted = await projectTrust(
    ctx,
    located,
    plan,
    client,
    createRedactor([...resolver.values, ...planSecrets(plan)]),
    trust,
  );
  if (typeof trusted !== 'string') return report({ ...base, mode: plan.mode }, [...checks, trusted]);
  const refused = plainHttpCheck(ctx, plan);
  if (refused) return report({ ...base, mode: plan.mode }, [...checks, refused]);
  // What runs unasked starts outside the project, so that npx takes no registry, config or package from it.
  const cwd = startsProcess(plan) ? (trusted === 'unasked' ? await runnerFolder(ctx) : trust.projectDir) : ctx.cwd;
  if (typeof cwd !== 'string') return report({ ...base, mode: plan.mode }, [...checks, cwd]);
  const runtime: RuntimeEnv = { env: ctx.env, platform: ctx.platform, cwd };
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
  if (helper !== undefined) checks.push(helper.check);
  checks.push(
    ...(helper?.check.ok === false
      ? []
      : await modeChecks(
          plan,
          resolver,
          unexpanded,
          client?.label ?? 'the client',
          runtime,
          timeoutMs,
          redactor,
          where,
          client,
        )),
  );
  const shown = checks.map((check) => ({
    ...check,
    detail: maskText(redactor.redact(check.detail)),
    fix: check.fix === null ? null : maskText(redactor.redact(check.fix)),
  }));
  return report({ ...base, mode: plan.mode }, shown);
}
