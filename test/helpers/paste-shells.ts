/**
 * The shells a person may paste a line of svcctl into, run for real on that line, with a program that records the
 * argv it gets: what a test compares is what arrived, not what the line looks like. A shell that is not installed
 * is listed in `missingShells` with the reason, for the test to skip visibly.
 */
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dirs.js';

export interface PasteShell {
  label: string;
  program: string;
  args: string[];
  /** Fed the line on stdin (an interactive shell), instead of taking it with -c. */
  stdin: boolean;
}

const ALL_SHELLS: PasteShell[] = [
  { label: 'bash', program: 'bash', args: ['--norc', '--noprofile', '-c'], stdin: false },
  // Interactive: history expansion (`!!`) is on, as in a terminal.
  { label: 'bash -i', program: 'bash', args: ['--norc', '--noprofile', '-i'], stdin: true },
  { label: 'dash', program: 'dash', args: ['-c'], stdin: false },
  { label: 'zsh', program: 'zsh', args: ['-f', '-c'], stdin: false },
  { label: 'fish', program: 'fish', args: ['--no-config', '-c'], stdin: false },
];

const installed = (program: string): boolean => spawnSync(program, ['-c', 'exit 0']).status === 0;

export const pasteShells = ALL_SHELLS.filter((shell) => installed(shell.program));
export const missingShells = [...new Set(ALL_SHELLS.map((shell) => shell.program))]
  .filter((program) => !installed(program))
  .map((program) => `${program} is not installed (apt-get install -y ${program})`);

/** A folder whose `bin/` holds the recorder under each name given; lines run with it as their working folder. */
export interface Recorder {
  dir: string;
  bin: string;
  /** Runs the line in the shell; the argv the recorder got (undefined: it was not run), and the shell's status. */
  run(shell: PasteShell, line: string, env?: Record<string, string>): RunInShell;
  /** Files a hostile value would have created (`touch PWNED…`) in the working folder. */
  planted(): string[];
}

export interface RunInShell {
  argv: string[] | undefined;
  status: number | null;
  stderr: string;
}

const PLANTED = ['PWNED', 'PWNED2', 'PWNED3'];

export async function makeRecorder(names: string[]): Promise<Recorder> {
  const dir = await tempDir('svcctl-paste-');
  const bin = join(dir, 'bin');
  await mkdir(bin);
  // NUL cannot be in an argument, so it separates them without any quoting of its own.
  const script = `#!/bin/sh\nprintf '%s\\0' "$@" > "$ARGV_OUT"\n`;
  for (const name of names) {
    await writeFile(join(bin, name), script);
    await chmod(join(bin, name), 0o755);
  }
  const out = join(dir, 'argv');
  return {
    dir,
    bin,
    run(shell, line, env = {}) {
      rmSync(out, { force: true });
      const result = spawnSync(shell.program, shell.stdin ? shell.args : [...shell.args, line], {
        cwd: dir,
        env: { PATH: `${bin}:${process.env.PATH}`, HOME: dir, LANG: 'C.UTF-8', ARGV_OUT: out, ...env },
        input: shell.stdin ? `${line}\n` : '',
        encoding: 'utf8',
        timeout: 20_000,
      });
      const argv = existsSync(out) ? readFileSync(out, 'utf8').split('\0').slice(0, -1) : undefined;
      return { argv, status: result.status, stderr: result.stderr };
    },
    planted: () => PLANTED.filter((name) => existsSync(join(dir, name))),
  };
}
