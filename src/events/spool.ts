// A rename into .inflight/ succeeds for one process only, so two flushers never send one file; bodies hold no secret.
import { promises as fs, type Stats } from 'node:fs';
import { join, resolve } from 'node:path';
import { replaceFile } from '../fs/no-follow.js';
import { SpoolFolder } from './spool-trust.js';

const INFLIGHT = '.inflight';
const REJECTED = 'rejected';
const SUFFIX = '.json';

export function spoolDirectory(
  flag: string | true,
  env: NodeJS.ProcessEnv,
  homeDir: string,
  envDir: string | undefined,
  cwd: string,
): string {
  if (typeof flag === 'string' && flag !== '') return resolve(cwd, flag);
  if (envDir) return resolve(cwd, envDir);
  const state = env.XDG_STATE_HOME || join(homeDir, '.local', 'state');
  return join(state, 'svcctl', 'spool');
}

/** uid undefined on Windows: no owner checks there. */
export const openSpool = (dir: string, uid: number | undefined): SpoolFolder => new SpoolFolder(resolve(dir), uid);

const safeId = (id: string): string => id.replace(/[^A-Za-z0-9._-]/g, '_');

export async function spoolEvent(spool: SpoolFolder, id: string, body: Uint8Array): Promise<string> {
  await spool.ensure();
  const dir = spool.dir;
  const final = join(dir, `${safeId(id)}${SUFFIX}`);
  await replaceFile(final, body, 0o600);
  const dirHandle = await fs.open(dir, 'r').catch(() => undefined);
  await dirHandle?.sync().catch(() => undefined);
  await dirHandle?.close();
  return final;
}

async function names(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

export async function countSpooled(dir: string): Promise<number> {
  const waiting = (await names(dir)).filter((n) => n.endsWith(SUFFIX) && !n.startsWith('.')).length;
  const inflight = (await names(join(dir, INFLIGHT))).filter((n) => n.includes(`${SUFFIX}.`)).length;
  return waiting + inflight;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const staleClaim = (name: string): string | undefined => {
  const match = /^(.*\.json)\.(\d+)$/.exec(name);
  return match && !alive(Number(match[2])) ? match[1] : undefined;
};

export async function listSpooled(dir: string): Promise<string[]> {
  return (await names(dir)).filter((n) => n.endsWith(SUFFIX) && !n.startsWith('.')).sort();
}

export interface SpoolContents {
  waiting: string[];
  listed: Map<string, Stats>;
}

/** Also puts back the claims of flushers no longer running (kill -9 during a flush). */
export async function openForFlush(spool: SpoolFolder): Promise<SpoolContents & { recovered: number }> {
  const dir = spool.dir;
  if (!(await spool.check())) return { waiting: [], listed: new Map(), recovered: 0 };
  const hasInflight = await spool.check(INFLIGHT);
  await spool.check(REJECTED);
  const stale = hasInflight ? (await names(spool.path(INFLIGHT))).filter((n) => staleClaim(n) !== undefined) : [];
  const waiting = await listSpooled(dir);
  const listed = await spool.checkFiles([
    ...stale.map((n) => join(dir, INFLIGHT, n)),
    ...waiting.map((n) => join(dir, n)),
  ]);
  let recovered = 0;
  for (const name of stale) {
    const from = join(dir, INFLIGHT, name);
    const to = join(dir, staleClaim(name)!);
    await spool.check(INFLIGHT);
    await spool.check();
    try {
      await fs.rename(from, to);
    } catch {
      continue; // another flusher put it back first
    }
    const info = listed.get(from);
    if (info) listed.set(to, info);
    recovered++;
  }
  return { waiting: recovered > 0 ? await listSpooled(dir) : waiting, listed, recovered };
}

export interface Claim {
  name: string;
  id: string;
  path: string;
  body: Buffer;
}

export async function claim(spool: SpoolFolder, name: string, listed: Map<string, Stats>): Promise<Claim | undefined> {
  const dir = spool.dir;
  await spool.ensure(INFLIGHT);
  await spool.check();
  const source = join(dir, name);
  const path = join(dir, INFLIGHT, `${name}.${process.pid}`);
  try {
    await fs.rename(source, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const body = await spool.read(path, source, listed.get(source));
    return { name, id: name.slice(0, -SUFFIX.length), path, body };
  } catch (error) {
    await fs.rename(path, source).catch(() => undefined);
    throw error;
  }
}

export const settle = (c: Claim): Promise<void> => fs.unlink(c.path);

export async function release(spool: SpoolFolder, c: Claim): Promise<void> {
  await spool.check(INFLIGHT);
  await spool.check();
  await fs.rename(c.path, join(spool.dir, c.name));
}

export async function reject(spool: SpoolFolder, c: Claim, answer: string): Promise<string> {
  await spool.ensure(REJECTED);
  const target = spool.path(REJECTED);
  await replaceFile(join(target, `${c.id}.answer.txt`), answer, 0o600);
  await spool.check(INFLIGHT);
  await spool.check(REJECTED);
  const path = join(target, c.name);
  await fs.rename(c.path, path);
  return path;
}
