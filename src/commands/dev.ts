/** `svcctl dev`: run the local sandbox until Ctrl+C (exit 130) or SIGTERM (exit 0); with --detach, in the background
 * (src/sandbox/detach.ts), returning once it is ready. */
import { resolve } from 'node:path';
import type { McpProtocolChoice } from '../core/constants.js';
import type { Context } from '../core/context.js';
import { exitWith, ExitCode, usageError } from '../core/errors.js';
import { parseUserFlag, parseWebhookFlag, type SandboxUser, type SandboxWebhook } from '../sandbox/sandbox-options.js';
import type { RunningSandbox } from '../sandbox/running-sandbox.js';
import type { Sandbox } from '../sandbox/sandbox-server.js';
import {
  formatReady,
  STOP_FUNCTION,
  terminalGreeting,
  type ReadyFormat,
  type ReadyLine,
} from '../sandbox/ready-output.js';
import { onInterrupt, type InterruptSignal } from '../core/interrupt.js';

export interface DevOptions {
  /** Undefined: the port of the last run when it is free, else any (0 always means any). */
  port?: number;
  user?: string[];
  webhook?: string[];
  tokenTtl: number;
  /** false: --no-events-file, the events stay in memory. */
  eventsFile?: string | false;
  maxBody: number;
  logFile?: string;
  format?: ReadyFormat;
  detach?: boolean;
  oneSessionPerUser?: boolean;
  protocol?: McpProtocolChoice;
  /** New ingest tokens and HMAC secret instead of the ones of the last run (src/sandbox/kept-secrets.ts). */
  fresh?: boolean;
  /** The background process of --detach: its ready line is read by the svcctl that started it. */
  detachedChild?: boolean;
}

export async function runDev(ctx: Context, options: DevOptions): Promise<void> {
  if (ctx.globals.json && options.format !== undefined && options.format !== 'json') {
    throw usageError(`--json and --format ${options.format} ask for two forms of the ready line`, 'keep one of them');
  }
  const users = (options.user ?? []).map(parseUserFlag);
  const webhooks = (options.webhook ?? []).map(parseWebhookFlag);
  const eventsFile = typeof options.eventsFile === 'string' ? resolve(ctx.cwd, options.eventsFile) : options.eventsFile;
  const logFile = options.logFile === undefined ? undefined : resolve(ctx.cwd, options.logFile);
  const files = { eventsFile, logFile };
  if (options.detach) return runDetached(ctx, options, files);

  const { openLogFile } = await import('../sandbox/log-file.js');
  const log = logFile === undefined ? undefined : await openLogFile(logFile);
  // Where messages go: the log file when there is one; stderr otherwise, except in the background after the ready line.
  let ready = false;
  const say = (line: string): void => {
    if (log) log.line(line);
    else if (!(options.detachedChild && ready)) ctx.out.info(line);
  };
  // Listen for signals before the server starts, so an early Ctrl+C still closes it cleanly.
  // The first signal closes the sandbox; a second one ends svcctl at once (src/core/interrupt.ts).
  let resolveStop!: (signal: InterruptSignal) => void;
  const stopped = new Promise<InterruptSignal>((resolve) => (resolveStop = resolve));
  const stopInterrupt = onInterrupt((signal) => resolveStop(signal));
  let started: StartedSandbox;
  try {
    started = await startOnItsPort(ctx, options, { users, webhooks, eventsFile, say });
  } catch (error) {
    stopInterrupt();
    await log?.close();
    throw error;
  }
  const greetedPerson = writeReadyLine(ctx, options, started.sandbox);
  ready = true;
  describeSandbox(ctx, options, started, { logFile, greetedPerson, say });

  const signal = await stopped;
  stopInterrupt();
  say(`stopping (${signal})…`);
  await started.sandbox.close();
  say('stopped');
  await log?.close();
  // Ctrl+C is an interruption (130, as everywhere in svcctl); SIGTERM is the orderly way to stop a service (0).
  if (signal === 'SIGINT') throw exitWith(ExitCode.Interrupted);
}

interface StartedSandbox {
  sandbox: Sandbox;
  port: number;
  /** The port of the last run, when the port was svcctl's choice. */
  previous?: number;
  /** Where the events are kept; false: in memory. */
  eventsFile: string | false;
  /** The webhooks' secrets are those of the last run. */
  keptSecrets: boolean;
}

interface SandboxSettings {
  users: SandboxUser[];
  webhooks: SandboxWebhook[];
  eventsFile?: string | false;
  say: (line: string) => void;
}

/** Without --port: the port of the last run when it is free, another one when it is taken; remembered for next time. */
async function startOnItsPort(ctx: Context, options: DevOptions, settings: SandboxSettings): Promise<StartedSandbox> {
  const { startSandbox, PortTaken } = await import('../sandbox/sandbox-server.js');
  const state = await import('../sandbox/sandbox-state.js');
  const { users, eventsFile, say } = settings;
  const { webhooks, reused } = await keepSecrets(ctx, settings.webhooks, options.fresh === true);
  const previous = options.port === undefined ? await state.previousPort(ctx) : undefined;
  const start = (port: number) =>
    startSandbox({
      port,
      users,
      webhooks,
      tokenTtlSeconds: options.tokenTtl,
      eventsFile:
        eventsFile === false
          ? undefined
          : (eventsFile ?? ((listening: number) => state.defaultEventsFile(ctx, listening))),
      maxBodyBytes: options.maxBody,
      oneSessionPerUser: options.oneSessionPerUser === true,
      protocol: options.protocol ?? 'both',
      log: (line) => say(line),
    });
  if (eventsFile === undefined) await ensureStateDir(ctx, state.ensureSandboxStateDir);
  const sandbox = await start(previous ?? options.port ?? 0).catch((error: unknown) => {
    if (previous === undefined || !(error instanceof PortTaken)) throw error;
    return start(0);
  });
  const port = Number(new URL(sandbox.origin).port);
  if (options.port === undefined)
    await state
      .rememberPort(ctx, port)
      .catch((error: unknown) => ctx.out.warn(`svcctl dev: cannot remember port ${port}: ${(error as Error).message}`));
  return {
    sandbox,
    port,
    previous,
    eventsFile: eventsFile ?? state.defaultEventsFile(ctx, port),
    keptSecrets: reused,
  };
}

/** The secrets of the last run; new ones (said on stderr) when svcctl's state folder cannot keep them. */
async function keepSecrets(
  ctx: Context,
  given: SandboxWebhook[],
  fresh: boolean,
): Promise<{ webhooks: SandboxWebhook[]; reused: boolean }> {
  const { withKeptSecrets } = await import('../sandbox/kept-secrets.js');
  return withKeptSecrets(ctx, given, fresh).catch((error: unknown) => {
    ctx.out.warn(`svcctl dev: cannot keep the webhooks' secrets for the next run: ${(error as Error).message}`);
    return { webhooks: given, reused: false };
  });
}

/** The ready line on stdout; true when it took the form for a person at a terminal. */
function writeReadyLine(ctx: Context, options: DevOptions, sandbox: Sandbox): boolean {
  // The ready line holds the sandbox's throwaway secrets on purpose: it is how scripts get them.
  const readyLine = sandbox.readyLine() as unknown as ReadyLine;
  // A person at a terminal gets lines to paste; the JSON line stays for pipes, --json and --format json.
  const greetPerson =
    !options.detachedChild && options.format === undefined && !ctx.globals.json && ctx.out.stdout.isTTY === true;
  ctx.out.raw(
    greetPerson
      ? terminalGreeting(readyLine)
      : formatReady(readyLine, options.detachedChild ? 'json' : (options.format ?? 'json')),
    { secret: true },
  );
  return greetPerson;
}

/** What is served, to whom, and where its events and requests go: to the log file or stderr. */
function describeSandbox(
  ctx: Context,
  options: DevOptions,
  { sandbox, port, previous, eventsFile, keptSecrets }: StartedSandbox,
  { logFile, greetedPerson, say }: { logFile?: string; greetedPerson: boolean; say: (line: string) => void },
): void {
  say(
    `svcctl dev: serving ${sandbox.baseUrl} and ${sandbox.mcpUrl} (${options.detachedChild ? 'in the background' : 'Ctrl+C to stop'})`,
  );
  say(
    `  MCP protocol: ${options.protocol === '2025-11-25' || options.protocol === '2026-07-28' ? `${options.protocol} only` : '2025-11-25 and 2026-07-28'}`,
  );
  say(`  users: ${sandbox.users.map((u) => u.email).join(', ')}`);
  say(
    `  webhooks: ${sandbox.webhooks.map((w) => `${w.name} (${w.hmac_secret === null ? 'unsigned' : 'HMAC-signed'})`).join(', ')}`,
  );
  if (previous !== undefined && port !== previous)
    say(`  port ${previous}, the one it had last time, is taken: listening on ${port} instead`);
  if (keptSecrets) say('  ingest tokens and HMAC secret: those of the last run (--fresh makes new ones)');
  say(
    eventsFile === false
      ? '  events file: none (--no-events-file): events are kept in memory only'
      : `  events file: ${eventsFile}${sandbox.store.size > 0 ? ` (${sandbox.store.size} earlier event${sandbox.store.size === 1 ? '' : 's'} read back)` : ''}`,
  );
  if (logFile && !options.detachedChild)
    ctx.out.info(`svcctl dev: serving ${sandbox.baseUrl}; the request log goes to ${logFile} (Ctrl+C to stop)`);
  if (!options.detachedChild && !greetedPerson)
    ctx.out.info('  passwords, ingest tokens and HMAC secrets are in the ready line on stdout');
}

/** The arguments that start the same sandbox again (paths already absolute). */
function childArgs(options: DevOptions, files: DetachedFiles): string[] {
  const args = [
    ...(options.port === undefined ? [] : ['--port', String(options.port)]),
    '--token-ttl',
    String(options.tokenTtl),
    '--max-body',
    String(options.maxBody),
  ];
  for (const user of options.user ?? []) args.push('--user', user);
  for (const webhook of options.webhook ?? []) args.push('--webhook', webhook);
  if (typeof files.eventsFile === 'string') args.push('--events-file', files.eventsFile);
  if (files.eventsFile === false) args.push('--no-events-file');
  if (files.logFile !== undefined) args.push('--log-file', files.logFile);
  if (options.oneSessionPerUser) args.push('--one-session-per-user');
  if (options.fresh) args.push('--fresh');
  if (options.protocol !== undefined && options.protocol !== 'both') args.push('--protocol', options.protocol);
  return args;
}

async function ensureStateDir(ctx: Context, ensure: (ctx: Context) => Promise<void>): Promise<void> {
  await ensure(ctx).catch((error: unknown) => {
    throw usageError(
      `cannot make svcctl's state folder for the sandbox's events: ${(error as Error).message}`,
      'name a file with --events-file FILE, or keep the events in memory with --no-events-file',
    );
  });
}

interface DetachedFiles {
  eventsFile?: string | false;
  logFile?: string;
}

async function runDetached(ctx: Context, options: DevOptions, files: DetachedFiles): Promise<void> {
  const { startDetached } = await import('../sandbox/detach.js');
  const state = await import('../sandbox/sandbox-state.js');
  const { recordRunning, runningSandbox } = await import('../sandbox/running-sandbox.js');
  const args = childArgs(options, files);
  const running = await runningSandbox(ctx);
  if (running !== undefined) return reuseRunning(ctx, options, args, running);
  const previous = options.port === undefined ? await state.previousPort(ctx) : undefined;
  const program = ctx.program ?? { execPath: 'node', script: undefined };
  const { ready, pid } = await startDetached({ program, args, env: ctx.env, cwd: ctx.cwd, stderr: ctx.out.stderr });
  await recordRunning(ctx, { pid, args, ready }).catch((error: unknown) =>
    ctx.out.warn(`svcctl dev: cannot record the background sandbox: ${(error as Error).message}`),
  );
  ctx.out.raw(formatReady(ready, options.format ?? 'json', pid), { secret: true });
  ctx.out.info(
    `svcctl dev: serving ${ready.base_url} in the background (pid ${pid}); stop it with: ${stopWith(ctx, options, pid)}`,
  );
  const port = Number(new URL(ready.base_url).port);
  if (previous !== undefined && port !== previous)
    ctx.out.info(`  port ${previous}, the one it had last time, is taken: it listens on ${port} instead`);
  ctx.out.info(
    files.eventsFile === false
      ? '  events file: none (events in memory only)'
      : `  events file: ${files.eventsFile ?? state.defaultEventsFile(ctx, port)}`,
  );
  ctx.out.info(
    files.logFile === undefined ? '  request log: off (--log-file FILE keeps it)' : `  request log: ${files.logFile}`,
  );
}

function stopWith(ctx: Context, options: DevOptions, pid: number): string {
  if ((options.format ?? 'json') !== 'json') return `${STOP_FUNCTION} (it also unsets the variables)`;
  return ctx.platform === 'win32' ? `Stop-Process -Id ${pid}` : `kill ${pid}`;
}

/** A second `dev --detach` while this user's background sandbox runs: the same variables again (so the new stop
 * function stops the one that runs), or, asked for another sandbox, a refusal: a second one would outlive its shell. */
function reuseRunning(ctx: Context, options: DevOptions, args: string[], running: RunningSandbox): void {
  const { pid, ready } = running;
  if (args.join('\0') !== running.args.join('\0'))
    throw usageError(
      `a sandbox of yours already runs in the background at ${ready.base_url} (pid ${pid}), started with other options`,
      `stop it first (${ctx.platform === 'win32' ? `Stop-Process -Id ${pid}` : `kill ${pid}`}, or ${STOP_FUNCTION} in the shell that started it), or run this one in the foreground: svcctl dev`,
    );
  ctx.out.raw(formatReady(ready, options.format ?? 'json', pid), { secret: true });
  ctx.out.info(
    `svcctl dev: a sandbox of yours already runs at ${ready.base_url} in the background (pid ${pid}): these are its variables; stop it with: ${stopWith(ctx, options, pid)}`,
  );
}
