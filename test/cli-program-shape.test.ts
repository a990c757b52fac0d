// The program builds only the command group argv reaches (src/cli/program.ts groupsFor), and within `event` only the
// subcommand named: that may not change what a user sees. (--version, which bin/svcctl.js answers itself, is tested on the built CLI in startup.e2e.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildProgram, runCli } from './helpers/cli.js';

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

test('`event send` builds that subcommand alone; each event subcommand still parses and helps as before', async () => {
  const subcommands = async (argv: string[]) =>
    (await buildProgram(argv)).commands.find((c) => c.name() === 'event')?.commands.map((c) => c.name());
  assert.deepEqual(await subcommands(['event', 'send', '--title', 'x']), ['send']);
  assert.deepEqual(await subcommands(['event', 'flush']), ['run', 'flush']);
  assert.deepEqual(await subcommands(['event', '--json', 'send']), ['send', 'run', 'flush', 'sign', 'verify']);
  const verify = await runCli(['event', 'verify', 'body.json']);
  assert.equal(verify.code, 2);
  assert.match(verify.stderr, /--signature/);
  const sign = await runCli(['event', 'sign', '--help']);
  assert.equal(sign.code, 0);
  assert.match(sign.stdout, /^Usage: svcctl event sign/m);
});

test('completion still walks the whole tree', async () => {
  const bash = await runCli(['completion', 'bash']);
  assert.equal(bash.code, 0);
  for (const word of ['install', 'doctor', 'send', 'flush', 'login', 'logout'])
    assert.ok(bash.stdout.includes(word), `completion knows ${word}`);
});

test('completion rejects an unknown shell with exit 2, naming the choices', async () => {
  const result = await runCli(['completion', 'tcsh']);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /bash, zsh, fish|"bash", "zsh", "fish"/);
  assert.equal(result.stdout, '');
});

/** Every command path under `path`, from the "Commands:" section of each help (the help a user reads). */
async function commandPaths(path: string[]): Promise<Array<{ path: string[]; help: string }>> {
  const help = (await runCli([...path, '--help'])).stdout;
  const section = help.split(/^Commands:$/m)[1]?.split(/^\S/m)[0] ?? '';
  const names = [...section.matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((match) => match[1]!).filter((n) => n !== 'help');
  const below = await Promise.all(names.map((name) => commandPaths([...path, name])));
  return [{ path, help }, ...below.flat()];
}

test('every help: no example line runs two commands together', async () => {
  const all = await commandPaths([]);
  assert.ok(all.length > 25, `walked ${all.length} commands`);
  const examples = all.flatMap(({ path, help }) =>
    (help.split(/^Examples:$/m)[1] ?? '')
      .split('\n')
      .filter((line) => line.includes('svcctl'))
      .map((line) => ({ path: path.join(' '), line })),
  );
  assert.ok(examples.length > 10, `${examples.length} example lines`);
  // Two commands run together (`… --dry-run  svcctl …`), not joined by a shell operator such as `&&` or `|`.
  for (const { path, line } of examples)
    assert.doesNotMatch(line.replace(/\s#\s.*$/, ''), /[^\s&|;(]\s+svcctl /, `svcctl ${path} --help: ${line}`);
});

test('`svcctl version` points at --version', async () => {
  const result = await runCli(['version']);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /unknown command 'version'\nhint: did you mean svcctl --version\?\n/);
});
