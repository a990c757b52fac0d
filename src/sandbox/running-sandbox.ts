// The background sandbox of this user (`dev --detach`), recorded in svcctl's state folder (0600: its ready line holds
// the sandbox's secrets), so that a second `dev --detach` (the README's line pasted twice, another terminal) finds it
// and hands out its variables instead of starting one that no `svcctl_dev_stop` knows.
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LOGIN_PATH } from '../core/constants.js';
import type { Context } from '../core/context.js';
import { fileTrustProblem } from '../fs/owner-mode.js';
import { replaceFile } from '../fs/no-follow.js';
import { createTransport } from '../http/transport.js';
import type { ReadyLine } from './ready-output.js';
import { ensureSandboxStateDir, sandboxStateDir } from './sandbox-state.js';

type StateContext = Pick<Context, 'env' | 'homeDir' | 'uid'>;

export interface RunningSandbox {
  pid: number;
  /** The arguments it was started with (childArgs in commands/dev.ts): a second start with others is another sandbox. */
  args: string[];
  ready: ReadyLine;
}

const recordFile = (ctx: StateContext): string => join(sandboxStateDir(ctx), 'running.json');

export async function recordRunning(ctx: StateContext, running: RunningSandbox): Promise<void> {
  await ensureSandboxStateDir(ctx);
  await replaceFile(recordFile(ctx), `${JSON.stringify(running)}\n`, 0o600);
}

async function readRecord(ctx: StateContext): Promise<RunningSandbox | undefined> {
  const file = recordFile(ctx);
  const info = await lstat(file).catch(() => undefined);
  if (info === undefined || fileTrustProblem(info, ctx.uid) !== undefined) return undefined;
  try {
    const record = JSON.parse(await readFile(file, 'utf8')) as RunningSandbox;
    const valid =
      Number.isInteger(record.pid) &&
      record.pid > 0 &&
      Array.isArray(record.args) &&
      typeof record.ready?.base_url === 'string' &&
      Array.isArray(record.ready.users);
    return valid ? record : undefined;
  } catch {
    return undefined;
  }
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // ESRCH: gone; EPERM: a process of another user has that id now, not this user's sandbox.
    return false;
  }
}

/** Whether the recorded sandbox still answers as itself: its process runs, and its login endpoint takes the password of
 * its first user (a process that took over the id, or another server on the port, does not). */
async function answersAsItself(ctx: StateContext, running: RunningSandbox): Promise<boolean> {
  const user = running.ready.users[0];
  if (user === undefined || !processRuns(running.pid)) return false;
  const url = new URL(running.ready.base_url);
  if (url.hostname !== '127.0.0.1') return false;
  const transport = await createTransport({ env: ctx.env, origin: url.origin, timeoutMs: 2000 });
  try {
    const response = await transport.send({
      url: `${running.ready.base_url}${LOGIN_PATH}`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ email: user.email, password: user.password })),
    });
    return response.status === 200;
  } catch {
    return false;
  } finally {
    await transport.abort().catch(() => undefined);
  }
}

/** This user's background sandbox, when one runs. */
export async function runningSandbox(ctx: StateContext): Promise<RunningSandbox | undefined> {
  const running = await readRecord(ctx);
  return running !== undefined && (await answersAsItself(ctx, running)) ? running : undefined;
}
