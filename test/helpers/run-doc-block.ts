/**
 * Runs one documentation block as a reader pasting it into a fresh terminal
 * would (see doc-blocks.ts for the rules): bash without `set -e`, every
 * failing command reported with its line, in an empty temp folder that is
 * also HOME, with the built CLI on PATH as `svcctl`. Every process the block
 * starts carries a marker variable, so that one it leaves running is found
 * (on Linux, through /proc) and ended.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BIN, cleanEnv, makeTempDir } from './cli-env.js';
import type { DocBlock } from './doc-blocks.js';
import { pollUntil } from './poll.js';

export interface BlockRun {
  code: number | null;
  /** stdout and stderr, in the order they came. */
  output: string;
  /** Lines the ERR trap wrote: `line N failed (exit X): command`. */
  failures: string[];
  /** Command lines of processes the block left running (ended since). */
  leftovers: string[];
  timedOut: boolean;
}

const MARK = 'SVCCTL_DOCS_TEST_RUN';
const FAILURE = /^docs-test: (line \d+ failed .*)$/gm;

/** The processes whose environment holds MARK=id (none where /proc is missing). */
function markedProcesses(id: string): Array<{ pid: number; command: string }> {
  if (!existsSync('/proc/self/environ')) return [];
  const found: Array<{ pid: number; command: string }> = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(`${MARK}=${id}`)) continue;
      found.push({
        pid: Number(name),
        command: readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim(),
      });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

async function settleLeftovers(id: string): Promise<string[]> {
  // A `kill` at the end of a block is asynchronous: give what it stopped a moment to exit.
  let left = markedProcesses(id);
  await pollUntil('', () => (left = markedProcesses(id)).length === 0, { everyMs: 100 }).catch(() => undefined);
  for (const { pid } of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return left.map((process) => process.command);
}

/** A folder holding `svcctl`, the built CLI, as `npm link` would put it on PATH. */
async function svcctlOnPath(): Promise<string> {
  const dir = await makeTempDir('svcctl-docs-bin-');
  await symlink(BIN, join(dir, 'svcctl'));
  return dir;
}

const SANDBOX_START = 'eval "$(svcctl dev --detach --format sh)"\n__docs_test_sandbox=$SVCCTL_DEV_PID\n';
const SANDBOX_STOP = '\nkill "$__docs_test_sandbox" 2>/dev/null\n';

/** `home`: run in this folder (a HOME shared by several runs) instead of a new one. */
export async function runDocBlock(block: DocBlock, timeoutMs = 60_000, home?: string): Promise<BlockRun> {
  home ??= await makeTempDir('svcctl-docs-home-');
  const scripts = await makeTempDir('svcctl-docs-script-');
  const bin = await svcctlOnPath();
  await mkdir(join(home, '.config'), { recursive: true });
  const blockFile = join(scripts, 'block.sh');
  // A last no-op line: the block's own last status was reported by the trap, not again as the `.` command's.
  await writeFile(blockFile, `${block.code}\n:\n`);
  const runner = [
    'set -o pipefail',
    '__docs_test_failed=0',
    `trap '__docs_test_status=$?; printf "docs-test: line %s failed (exit %s): %s\\n" "$LINENO" "$__docs_test_status" "$BASH_COMMAND" >&2; __docs_test_failed=1' ERR`,
    block.mode.kind === 'sandbox' ? SANDBOX_START : '',
    `. ${JSON.stringify(blockFile)}`,
    block.mode.kind === 'sandbox' ? SANDBOX_STOP : '',
    'exit "$__docs_test_failed"',
  ].join('\n');
  const id = randomUUID();
  const env = cleanEnv(home, { PATH: `${bin}:${process.env.PATH ?? ''}`, [MARK]: id, TERM: 'dumb' });
  const child = spawn('bash', ['--noprofile', '--norc', '-c', runner], {
    cwd: home,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone
    }
  }, timeoutMs);
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  // The shell's exit, not the end of its output: a process left in the background may hold the pipes open.
  const code = await new Promise<number | null>((resolve) => child.on('exit', (exit) => resolve(exit)));
  clearTimeout(timer);
  const leftovers = await settleLeftovers(id);
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2000))]);
  child.stdout.destroy();
  child.stderr.destroy();
  const failures = [...output.matchAll(FAILURE)].map((match) => match[1]!);
  return { code, output, failures, leftovers, timedOut };
}

/** A line of the sandbox's request log (`<ISO time> <METHOD> <path> …`). */
export const REQUEST_LOG_LINE = /^\d{4}-\d\d-\d\dT[\d:.]+Z (GET|POST|DELETE|PUT|PATCH|HEAD|OPTIONS) \/\S* /m;
