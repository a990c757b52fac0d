// The program builds only the command group argv reaches (src/cli/program.ts groupsFor), and the
// executable answers --version itself (bin/svcctl.js): neither may change what a user sees.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { runCli, spawnCli } from './helpers/cli.js';

const TOP_LEVEL = ['event', 'login', 'token', 'logout', 'mcp', 'dev', 'completion'];

test('top-level help, `help`, an unknown command and an option first still see every command', async () => {
  const help = await runCli(['--help']);
  assert.equal(help.code, 0);
  for (const name of TOP_LEVEL) assert.match(help.stdout, new RegExp(`^  ${name}\\b`, 'm'), `--help lists ${name}`);
  const helpMcp = await runCli(['help', 'mcp']);
  assert.equal(helpMcp.code, 0);
  assert.match(helpMcp.stdout, /^Usage: svcctl mcp/m);
  const unknown = await runCli(['evnt', 'send']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command 'evnt'[\s\S]*hint: did you mean event\?/);
  const optionFirst = await runCli(['--no-color', 'mcp', '--help']);
  assert.equal(optionFirst.code, 0);
  assert.match(optionFirst.stdout, /^Usage: svcctl mcp/m);
});

test('a group given first is complete: its help, its subcommands, and suggestions within it', async () => {
  const event = await runCli(['event', '--help']);
  assert.equal(event.code, 0);
  for (const name of ['send', 'sign', 'verify', 'run', 'flush'])
    assert.match(event.stdout, new RegExp(`^  ${name}\\b`, 'm'));
  const typo = await runCli(['event', 'sedn']);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /hint: did you mean send\?/);
  const token = await runCli(['token', 'inspect', '--help']);
  assert.equal(token.code, 0);
  assert.match(token.stdout, /^Usage: svcctl token inspect/m);
});

test('completion still walks the whole tree', async () => {
  const bash = await runCli(['completion', 'bash']);
  assert.equal(bash.code, 0);
  for (const word of ['install', 'doctor', 'send', 'flush', 'login', 'logout'])
    assert.ok(bash.stdout.includes(word), `completion knows ${word}`);
});

test("--version and -V print package.json's version, as `svcctl event --version` (commander) does", async () => {
  const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  for (const args of [['--version'], ['-V'], ['event', '--version']]) {
    // The build sets the version and bin/svcctl.js answers --version itself: only the built CLI shows both.
    const result = await spawnCli(args);
    assert.equal(result.code, 0, args.join(' '));
    assert.equal(result.stdout, `${version}\n`, args.join(' '));
    assert.equal(result.stderr, '');
  }
});
