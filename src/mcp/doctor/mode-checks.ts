// The connection checks of each mode, after the entry, its variables and its trust are settled (run-checks.ts).
import type { Redactor } from '../../redaction/redaction.js';
import type { EntryPlan } from './entry-plan.js';
import type { Resolver } from './references.js';
import { checkNode, checkRunner, type RuntimeEnv } from './runtime-checks.js';
import { caCertsCheck, guiRunnerCheck, startRuntime } from './start-environment.js';
import type { ClientSpec, PasteShell } from '../types.js';
import { exportWord, pasteShellOf } from '../render/shell-quote.js';
import { fail, skip, type CheckResult } from './types.js';
import { goneCheck, goneSvcctlPaths, type EntryWhere } from './svcctl-paths.js';

/** An unexpanded reference, a missing variable or a VS Code input would make a connection's result meaningless. */
function blocker(resolver: Resolver, unexpanded: string[], who: string, shell: PasteShell): CheckResult | undefined {
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
      `${exportWord(shell)} ${missing.join(', ')} and run doctor again`,
    );
  if (resolver.inputs.size > 0)
    return skip(
      'initialize',
      `not checked: the entry takes its values from ${who}'s inputs, which only ${who} can ask for`,
    );
  return undefined;
}

export async function modeChecks(
  plan: EntryPlan,
  resolver: Resolver,
  unexpanded: string[],
  who: string,
  runtime: RuntimeEnv,
  timeoutMs: number,
  redactor: Redactor,
  where: EntryWhere,
  { client }: { client: ClientSpec | null },
): Promise<CheckResult[]> {
  if (plan.mode === 'remote') {
    const blocked = blocker(resolver, unexpanded, who, pasteShellOf(runtime));
    if (blocked) return [blocked];
    const { probeHttpServer } = await import('./http-probe.js');
    return probeHttpServer(plan.http, { timeoutMs, redactor, env: runtime.env, shell: pasteShellOf(runtime) });
  }
  const start = startRuntime(runtime, client, plan.command);
  const runner =
    (await guiRunnerCheck(plan.command, start, runtime, client)) ?? (await checkRunner(plan.command, start));
  const ca = caCertsCheck(plan.command, runtime, client);
  const checks = [await checkNode(start), runner, ...(ca === undefined ? [] : [ca])];
  const blocked = blocker(resolver, unexpanded, who, pasteShellOf(runtime));
  if (plan.mode === 'local') {
    if (!checks[1]!.ok)
      return [...checks, fail('initialize', 'not tried: the command is not on PATH', checks[1]!.fix!)];
    if (blocked) return [...checks, blocked];
    const { probeStdioServer } = await import('./stdio-probe.js');
    const options = { env: start.env, cwd: runtime.cwd, timeoutMs, redactor, platform: runtime.platform };
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
        platform: runtime.platform,
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
      shell: pasteShellOf(runtime),
      note: 'checked the URL the proxy forwards to',
    })),
  ];
}
