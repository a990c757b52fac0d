/**
 * Usage mistakes get one clear error in svcctl's form (`error:` then `hint:`),
 * exit 2: a value outside a fixed set of choices names the closest one, as an
 * unknown command or option does; `svcctl help a b` shows the help of `a b`.
 * The expected suggestions were picked by hand (one typo each).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { closestChoices } from '../src/cli/choice-suggestions.js';

const TYPOS: Array<[string[], RegExp, string]> = [
  [['mcp', 'install', '--client', 'curser'], /option '--client <id>' argument 'curser' is invalid/, 'cursor'],
  [
    ['mcp', 'install', '--client', 'cursor', '--client', 'vscod'],
    /argument 'vscod' is invalid/,
    'vscode or vscode-insiders',
  ],
  [['mcp', 'install', '--client', 'cursor', '--mode', 'remot'], /argument 'remot' is invalid/, 'remote'],
  [['mcp', 'install', '--client', 'cursor', '--scope', 'projet'], /argument 'projet' is invalid/, 'project'],
  [['mcp', 'install', '--client', 'cursor', '--auth', 'baerer'], /argument 'baerer' is invalid/, 'bearer'],
  [['mcp', 'install', '--client', 'cursor', '--secrets', 'literl'], /argument 'literl' is invalid/, 'literal'],
  [['mcp', 'install', '--config', 'x.json', '--format', 'tom'], /argument 'tom' is invalid/, 'toml'],
  [['completion', 'zshh'], /value 'zshh' is invalid for argument 'shell'/, 'zsh'],
  [['evnt'], /unknown command 'evnt'/, 'event'],
  [['event', 'send', '--titel', 'x'], /unknown option '--titel'/, '--title'],
];

describe('did you mean', () => {
  for (const [args, error, suggestion] of TYPOS) {
    it(`svcctl ${args.join(' ')} → did you mean ${suggestion}?`, async () => {
      const result = await runCli(args);
      assert.equal(result.code, 2, result.stderr);
      const lines = result.stderr.trimEnd().split('\n');
      assert.match(lines[0]!, /^error: /);
      assert.match(lines[0]!, error);
      assert.equal(lines.at(-1), `hint: did you mean ${suggestion}?`);
      assert.equal(result.stdout, '');
    });
  }

  it('a value far from every choice lists the choices and suggests nothing', async () => {
    const result = await runCli(['mcp', 'install', '--mode', 'zzzzzz']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /Allowed choices are local, remote, proxy\./);
    assert.doesNotMatch(result.stderr, /did you mean/);
  });

  it('closestChoices: one edit, a swap, a prefix; nothing for an unrelated word', () => {
    assert.deepEqual(closestChoices('curser', ['cursor', 'codex', 'cline']), ['cursor']);
    assert.deepEqual(closestChoices('cdoex', ['cursor', 'codex', 'cline']), ['codex']);
    assert.deepEqual(closestChoices('claude', ['claude-desktop', 'claude-code', 'cline']), [
      'claude-desktop',
      'claude-code',
    ]);
    assert.deepEqual(closestChoices('kubernetes', ['cursor', 'codex', 'cline']), []);
  });
});

describe('help', () => {
  it('svcctl help event send shows the help of event send, not of the event group', async () => {
    const result = await runCli(['help', 'event', 'send']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Usage: svcctl event send \[options\] \[FILE\]/);
  });
  it('svcctl help mcp install, and help of a group, still work', async () => {
    assert.match((await runCli(['help', 'mcp', 'install'])).stdout, /^Usage: svcctl mcp install /);
    assert.match((await runCli(['help', 'event'])).stdout, /^Usage: svcctl event \[options\] \[command\]/);
  });
  it('login and token --help: PowerShell examples on Windows (no $(…), &&, ||, < or printf), POSIX ones elsewhere', async () => {
    for (const command of ['login', 'token']) {
      const windows = (await runCli([command, '--help'], { platform: 'win32', env: { USERPROFILE: '/' } })).stdout;
      const examples = windows.slice(windows.indexOf('Examples'));
      assert.match(examples, /^Examples \(PowerShell\):/);
      assert.doesNotMatch(examples, /\$\(|&&|\|\||< |printf|jq /, `${command}: a line PowerShell 5.1 would not run`);
      const posix = (await runCli([command, '--help'], { platform: 'linux' })).stdout;
      assert.match(posix, /^Examples:$/m);
      assert.match(posix, command === 'login' ? /TOKEN=\$\(svcctl login/ : /\|\| echo expired/);
    }
  });
});
