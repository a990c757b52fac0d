/**
 * Runs the built CLI like runCli and measures its peak memory: VmHWM of
 * /proc/<pid>/status (Linux), read every 20 ms while the child runs. The high
 * water mark only grows, so the last reading is the peak up to then.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { BIN, cleanEnv, makeTempDir } from './cli-env.js';

export interface MeasuredRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Peak resident memory in MiB (0 where /proc is missing). */
  peakMiB: number;
  elapsedMs: number;
}

export async function vmHwmKiB(pid: number): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmHWM:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

export async function runCliMeasured(
  args: string[],
  env: Record<string, string>,
  killAfterMs = 30_000,
): Promise<MeasuredRun> {
  const home = await makeTempDir('svcctl-home-');
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: home,
    env: cleanEnv(home, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  let peak = 0;
  let running = true;
  const poll = (async () => {
    while (running) {
      peak = Math.max(peak, await vmHwmKiB(child.pid as number));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(killer);
  running = false;
  await poll;
  return { code, stdout, stderr, peakMiB: Math.round(peak / 1024), elapsedMs: Date.now() - started };
}
