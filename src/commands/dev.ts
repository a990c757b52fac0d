/** `svcctl dev`: run the local sandbox until Ctrl+C (exit 130) or SIGTERM (exit 0). */
import { resolve } from 'node:path';
import type { Context } from '../context.js';
import { exitWith, ExitCode } from '../errors.js';
import { parseUserFlag, parseWebhookFlag } from '../dev/sandbox-options.js';
import { startSandbox } from '../dev/sandbox-server.js';
import { onInterrupt, type InterruptSignal } from '../interrupt.js';

export interface DevOptions {
  port: number;
  user: string[];
  webhook: string[];
  tokenTtl: number;
  eventsFile?: string;
  maxBody: number;
}

export async function runDev(ctx: Context, options: DevOptions): Promise<void> {
  const users = options.user.map(parseUserFlag);
  const webhooks = options.webhook.map(parseWebhookFlag);
  const eventsFile = options.eventsFile === undefined ? undefined : resolve(ctx.cwd, options.eventsFile);
  // Listen for signals before the server starts, so an early Ctrl+C still closes it cleanly.
  // The first signal closes the sandbox; a second one ends svcctl at once (src/interrupt.ts).
  let resolveStop!: (signal: InterruptSignal) => void;
  const stopped = new Promise<InterruptSignal>((resolve) => (resolveStop = resolve));
  const stopInterrupt = onInterrupt((signal) => resolveStop(signal));
  let sandbox;
  try {
    sandbox = await startSandbox({
      port: options.port,
      users,
      webhooks,
      tokenTtlSeconds: options.tokenTtl,
      eventsFile,
      maxBodyBytes: options.maxBody,
      log: (line) => ctx.out.info(line),
    });
  } catch (error) {
    stopInterrupt();
    throw error;
  }
  // The ready line holds the sandbox's throwaway secrets on purpose: it is how scripts get them.
  ctx.out.jsonResult(sandbox.readyLine());
  ctx.out.info(`svcctl dev: serving ${sandbox.baseUrl} and ${sandbox.mcpUrl} (Ctrl+C to stop)`);
  ctx.out.info(`  users: ${sandbox.users.map((u) => u.email).join(', ')}`);
  ctx.out.info(`  webhooks: ${sandbox.webhooks.map((w) => `${w.name} (${w.hmac_secret === null ? 'unsigned' : 'HMAC-signed'})`).join(', ')}`);
  if (eventsFile) ctx.out.info(`  events file: ${eventsFile}${sandbox.store.size > 0 ? ` (${sandbox.store.size} earlier events read back)` : ''}`);
  ctx.out.info('  passwords, ingest tokens and HMAC secrets are in the JSON line on stdout');

  const signal = await stopped;
  stopInterrupt();
  ctx.out.info(`stopping (${signal})…`);
  await sandbox.close();
  ctx.out.info('stopped');
  // Ctrl+C is an interruption (130, as everywhere in svcctl); SIGTERM is the orderly way to stop a service (0).
  if (signal === 'SIGINT') throw exitWith(ExitCode.Interrupted);
}
