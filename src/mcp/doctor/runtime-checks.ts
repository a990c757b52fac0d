// PATH is searched as the client would: the PATH of the environment doctor runs in.
import { PACKAGE_RUNNER } from '../../core/constants.js';
import type { CommandPlan } from './entry-plan.js';
import { findProgram } from '../../fs/path-search.js';
import { fail, pass, type CheckResult } from './types.js';

export const MIN_NODE_MAJOR = 20;

export interface RuntimeEnv {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  cwd: string;
}

/**
 * The answers of `node --version` by file and NODE_OPTIONS (the one variable that can make it fail): `doctor --all`
 * checks each entry with the same node, ~35 ms of CPU a start. The file's inode, size and modification time are part
 * of the key, so a node replaced in place (an upgrade) is asked again. Only answers are kept: a failure is retried.
 */
const nodeVersions = new Map<string, string>();

async function nodeVersion(nodePath: string, env: NodeJS.ProcessEnv): Promise<string> {
  const { stat } = await import('node:fs/promises');
  const file = await stat(nodePath);
  const key = [nodePath, file.dev, file.ino, file.size, file.mtimeMs, env.NODE_OPTIONS ?? ''].join('\0');
  const known = nodeVersions.get(key);
  if (known !== undefined) return known;
  const { execFile } = await import('node:child_process');
  const version = await new Promise<string>((resolve, reject) => {
    execFile(nodePath, ['--version'], { env, timeout: 10_000, windowsHide: true }, (error, stdout) =>
      error ? reject(error) : resolve(stdout.trim()),
    );
  });
  nodeVersions.set(key, version);
  return version;
}

export async function checkNode(runtime: RuntimeEnv): Promise<CheckResult> {
  const fix = `install Node.js ${MIN_NODE_MAJOR} or later (https://nodejs.org) and put it on the PATH the client starts with`;
  const nodePath = await findProgram('node', runtime.env, runtime.platform, runtime.cwd);
  if (nodePath === undefined) return fail('node', 'node is not on PATH', fix);
  let version: string;
  try {
    version = await nodeVersion(nodePath, runtime.env);
  } catch (error) {
    return fail('node', `${nodePath} --version failed: ${(error as Error).message}`, fix);
  }
  const major = Number(/^v(\d+)\./.exec(version)?.[1] ?? NaN);
  if (!(major >= MIN_NODE_MAJOR))
    return fail('node', `node ${version} at ${nodePath} is older than ${MIN_NODE_MAJOR}`, fix);
  return pass('node', `node ${version} at ${nodePath}`);
}

/** The program an entry runs: `cmd /c npx …` (Windows clients that spawn without a shell) runs npx. */
export function programOf(command: CommandPlan): string {
  if (/^cmd(\.exe)?$/i.test(command.command) && command.args[0]?.toLowerCase() === '/c' && command.args[1])
    return command.args[1];
  return command.command;
}

/** npx by name, or by the absolute path install writes for a GUI client (docs/mcp-gui.md; Volta's is npx.exe). */
export function isPackageRunner(program: string): boolean {
  return /(^|[\\/])npx(\.cmd|\.exe)?$/i.test(program);
}

export async function checkRunner(command: CommandPlan, runtime: RuntimeEnv): Promise<CheckResult> {
  const program = programOf(command);
  const found = await findProgram(program, runtime.env, runtime.platform, runtime.cwd);
  if (found !== undefined) return pass('runner', `${program} found at ${found}`);
  const fix =
    program === PACKAGE_RUNNER
      ? `install Node.js ${MIN_NODE_MAJOR} or later (npx comes with npm) and put it on the PATH the client starts with`
      : `install ${program}, or fix the entry's command (svcctl mcp install --force rewrites it)`;
  return fail('runner', `${program} is not on PATH${program.includes('/') ? ' (no such executable file)' : ''}`, fix);
}
