// What `svcctl dev` keeps between runs, in svcctl's state folder (0700), never in the folder it is started in: the
// port it listened on last (so a restart keeps the URL that saved deployments, spooled events and the shell's
// variables point at), and the events each port received.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stateDir } from '../config/config-dir.js';
import type { Context } from '../core/context.js';
import { replaceFile } from '../fs/no-follow.js';
import { ensureFolder } from '../fs/private-dir.js';

type StateContext = Pick<Context, 'env' | 'homeDir'>;

export const sandboxStateDir = (ctx: StateContext): string => join(stateDir(ctx), 'sandbox');

const lastPortFile = (ctx: StateContext): string => join(sandboxStateDir(ctx), 'last-port');

/** One file per port: two sandboxes at once never share one, and a restart on the same port reads its events back. */
export const defaultEventsFile = (ctx: StateContext, port: number): string =>
  join(sandboxStateDir(ctx), `events-${port}.ndjson`);

export const ensureSandboxStateDir = (ctx: StateContext): Promise<void> =>
  ensureFolder(sandboxStateDir(ctx), { private: true });

/** Undefined when none was kept or the file holds no port: the sandbox then takes any free one. */
export async function previousPort(ctx: StateContext): Promise<number | undefined> {
  const text = await readFile(lastPortFile(ctx), 'utf8').catch(() => '');
  const port = Number(text.trim());
  return /^\d+$/.test(text.trim()) && port >= 1 && port <= 65535 ? port : undefined;
}

export async function rememberPort(ctx: StateContext, port: number): Promise<void> {
  await ensureSandboxStateDir(ctx);
  await replaceFile(lastPortFile(ctx), `${port}\n`, 0o600);
}
