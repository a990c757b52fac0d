/**
 * `svcctl completion bash|zsh|fish`: the scripts printed by the built CLI are
 * loaded into the real shells and their completion functions driven as the
 * shell would (bash: COMP_WORDS + the `complete -F` function; fish:
 * `complete -C`; zsh: the function with compadd recorded). zsh and fish tests
 * run where those shells are installed.
 */
import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Option } from 'commander';
import { completionScript } from '../src/cli/completion-scripts.js';
import { completionTree } from '../src/cli/completion-tree.js';
import { CLIENT_IDS } from '../src/mcp/types.js';
import { buildProgram, runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const has = (shell: string): boolean => spawnSync(shell, ['-c', 'exit 0']).status === 0;

async function scriptOf(shell: 'bash' | 'zsh' | 'fish'): Promise<string> {
  const result = await runCli(['completion', shell]);
  assert.equal(result.code, 0, result.stderr);
  const file = join(await tempDir('svcctl-completion-'), `svcctl.${shell}`);
  await writeFile(file, result.stdout);
  return file;
}

/** What bash's completion function offers for the words (the last one is the word being completed). */
function bashComplete(script: string, words: string[], cwd?: string): string[] {
  const driver =
    'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; _svcctl; printf "%s\\n" "${COMPREPLY[@]}"';
  const out = execFileSync('bash', ['--norc', '--noprofile', '-c', driver, 'driver', script, ...words], {
    encoding: 'utf8',
    cwd,
  });
  return out.split('\n').filter((line) => line !== '');
}

describe('svcctl completion bash', () => {
  it('completes `svcctl ev` to `event` and `svcctl --json mcp ins` to `install`', async () => {
    const script = await scriptOf('bash');
    assert.deepEqual(bashComplete(script, ['svcctl', 'ev']), ['event']);
    assert.deepEqual(bashComplete(script, ['svcctl', '--json', 'mcp', 'ins']), ['install']);
  });

  it('offers every client id of the client table after `mcp install --client `, also after a value flag', async () => {
    const script = await scriptOf('bash');
    assert.deepEqual(bashComplete(script, ['svcctl', 'mcp', 'install', '--client', '']).sort(), [...CLIENT_IDS].sort());
    assert.deepEqual(bashComplete(script, ['svcctl', 'mcp', 'install', '--name', 'x', '--client', 'cu']), ['cursor']);
    // bash splits --client=cu at '=' (COMP_WORDBREAKS).
    assert.deepEqual(bashComplete(script, ['svcctl', 'mcp', 'install', '--client', '=', 'cl']).sort(), [
      'claude-code',
      'claude-desktop',
      'cline',
      'cline-cli',
    ]);
  });

  it('offers the choices of --mode, --auth and --scope, and files for file arguments and options', async () => {
    const script = await scriptOf('bash');
    assert.deepEqual(bashComplete(script, ['svcctl', 'mcp', 'print', '--mode', '']), ['local', 'remote', 'proxy']);
    assert.deepEqual(bashComplete(script, ['svcctl', 'mcp', 'print', '--auth', '']), ['password', 'bearer']);
    assert.deepEqual(bashComplete(script, ['svcctl', 'mcp', 'uninstall', '--scope', '']), ['user', 'project', 'local']);
    const dir = await tempDir('svcctl-completion-files-');
    await writeFile(join(dir, 'event-1.json'), '{}');
    await writeFile(join(dir, 'token.txt'), 't');
    assert.deepEqual(bashComplete(script, ['svcctl', 'event', 'send', 'ev'], dir), ['event-1.json']);
    assert.deepEqual(bashComplete(script, ['svcctl', 'event', 'send', '--token-file', 'to'], dir), ['token.txt']);
    assert.deepEqual(bashComplete(script, ['svcctl', 'event', 'send', '--title', '']), [], '--title takes free text');
    assert.ok(bashComplete(script, ['svcctl', 'event', 'send', '--']).includes('--payload-file'));
  });

  it('offers the shells after `svcctl completion `, and commands (then files) after `event run -- `', async () => {
    const script = await scriptOf('bash');
    assert.deepEqual(bashComplete(script, ['svcctl', 'completion', '']), ['bash', 'zsh', 'fish']);
    assert.deepEqual(bashComplete(script, ['svcctl', 'completion', 'z']), ['zsh']);
    // A command on PATH: a tiny script in a folder of its own, so the answer does not depend on the machine.
    const bin = await tempDir('svcctl-completion-bin-');
    await writeFile(join(bin, 'svcctl-test-job'), '#!/bin/sh\n', { mode: 0o755 });
    const driver = (words: string[]) =>
      execFileSync(
        'bash',
        [
          '--norc',
          '--noprofile',
          '-c',
          'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _svcctl; printf "%s\\n" "${COMPREPLY[@]}"',
          'driver',
          script,
          ...words,
        ],
        {
          encoding: 'utf8',
          cwd: bin,
          env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
        },
      )
        .split('\n')
        .filter(Boolean);
    assert.deepEqual(driver(['svcctl', 'event', 'run', '--', 'svcctl-test-j']), ['svcctl-test-job']);
    assert.deepEqual(
      driver(['svcctl', 'event', 'run', '--always', '--', 'svcctl-test-job', 'svcctl-t']),
      ['svcctl-test-job'],
      'then files',
    );
    assert.ok(driver(['svcctl', 'event', 'run', '--al']).includes('--always'), 'before -- the options of event run');
  });

  it('completes an option added to the commander tree without any change to the generator', async () => {
    const program = await buildProgram();
    const send = program.commands.find((c) => c.name() === 'event')?.commands.find((c) => c.name() === 'send');
    assert.ok(send);
    send
      .option('--brand-new-file <file>', 'a new option')
      .addOption(new Option('--colour <c>', 'a new choice').choices(['red', 'teal']));
    const file = join(await tempDir('svcctl-completion-new-'), 'svcctl.bash');
    await writeFile(file, completionScript('bash', completionTree(program), '9.9.9'));
    assert.deepEqual(bashComplete(file, ['svcctl', 'event', 'send', '--bra']), ['--brand-new-file']);
    assert.deepEqual(bashComplete(file, ['svcctl', 'event', 'send', '--colour', '']), ['red', 'teal']);
    assert.deepEqual(bashComplete(file, ['svcctl', 'event', 'send', '--colour', 'red', '--col']), ['--colour']);
  });
});

describe('svcctl completion fish and zsh', () => {
  it('fish: `complete -C` offers client ids, commands with descriptions, and --opt=value', {
    skip: !has('fish') && 'fish is not installed',
  }, async () => {
    const script = await scriptOf('fish');
    const complete = (line: string): string[] =>
      execFileSync('fish', ['--no-config', '-c', `source ${script}; complete -C ${JSON.stringify(line)}`], {
        encoding: 'utf8',
      })
        .split('\n')
        .filter(Boolean);
    assert.deepEqual(complete('svcctl mcp install --client ').sort(), [...CLIENT_IDS].sort());
    assert.deepEqual(complete('svcctl ev'), ['event\tsend signed events to the Event Ingestion API']);
    assert.deepEqual(complete('svcctl mcp install --mode=re'), ['--mode=remote']);
  });

  it('zsh: the completion function offers client ids and subcommands', {
    skip: !has('zsh') && 'zsh is not installed',
  }, async () => {
    const script = await scriptOf('zsh');
    // compdef/compadd/_files are compsys's; here they record what the function asks for.
    const driver = `compdef() { :; }; compset() { :; }; compadd() { [[ $1 == -- ]] && shift; print -rl -- "$@"; }; _files() { print -r -- '(files)'; }
      source "$1"; shift; words=("$@"); CURRENT=$#; _svcctl`;
    const complete = (...words: string[]): string[] =>
      execFileSync('zsh', ['-f', '-c', driver, 'driver', script, ...words], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean);
    assert.deepEqual(complete('svcctl', 'mcp', 'install', '--client', '').sort(), [...CLIENT_IDS].sort());
    assert.ok(complete('svcctl', '').includes('event'));
    assert.deepEqual(complete('svcctl', 'event', 'send', ''), ['(files)']);
  });
});
