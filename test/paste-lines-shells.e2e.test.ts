/**
 * The lines `svcctl mcp command` prints for a person to paste, run by every shell installed here (bash, also
 * interactive, dash, zsh, fish) against a program that records its argv: hostile values (quotes of every kind, a
 * backslash at the end, $(), backticks, newlines, `;`) arrive as one argument each, unchanged, and nothing else runs.
 * A shell that is missing is skipped, saying so. PowerShell is not installable here: test/shell-quote-powershell.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { commandLine } from '../src/mcp/render/shell-quote.js';
import { runCli } from './helpers/cli.js';
import { makeRecorder, missingShells, pasteShells } from './helpers/paste-shells.js';

const BASE = ['--base-url', 'https://acme.example.com/api'];

// Each one ends a word early in some shell when quoted the POSIX way, or expands there unquoted.
const HOSTILE = [
  "it's",
  '"double" \'single\'',
  '‘left’ ‚low‛ “double”',
  'ends in a backslash\\',
  '; touch PWNED #',
  '\\',
  "\\'",
  "'\\''",
  '$(touch PWNED2)',
  '`touch PWNED3`',
  '&& touch PWNED || touch PWNED',
  'line\nbreak; touch PWNED',
  '\n',
  '$HOME ${HOME} $env:HOME',
  '%self',
  '=ls',
  '~',
  '!!',
  '!-1 !$',
  '{a,b}',
  '*',
  '',
  ' ',
  '--%',
  '@args',
  'a,b',
  '1kb',
  '-Da.b=c',
  '\uf600\ufdd0\ufffe',
];
// What a terminal's line editor reads as a key when the line is pasted (a line feed inside quotes only continues).
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/u;

describe('lines to paste, run by each shell', { skip: pasteShells.length === 0 && 'no shell to run them' }, () => {
  for (const reason of missingShells) it(`skipped: ${reason}`, { skip: reason }, () => {});

  it('every hostile value arrives whole and unchanged; nothing else runs', async () => {
    const recorder = await makeRecorder(['record']);
    const line = commandLine(['record', ...HOSTILE], 'posix-or-fish');
    for (const shell of pasteShells) {
      const { argv, status, stderr } = recorder.run(shell, line);
      assert.deepEqual(argv, HOSTILE, `${shell.label}: ${line}\n${stderr}`);
      assert.equal(status, 0, `${shell.label}: ${stderr}`);
      assert.deepEqual(recorder.planted(), [], `${shell.label} ran a command of the values`);
    }
  });

  it('property: any values without control characters arrive as written', async () => {
    const recorder = await makeRecorder(['record']);
    const special = fc.constantFrom(...'\'"\\$`;&|<>(){}[]*?~#!%=,@ \n‘’‚‛“”„'.split(''));
    const anyCodePoint = fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => !CONTROL.test(c));
    const value = fc.string({ unit: fc.oneof(special, anyCodePoint), maxLength: 12 });
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 5 }), (values) => {
        const line = commandLine(['record', ...values], 'posix-or-fish');
        for (const shell of pasteShells) {
          const { argv, stderr } = recorder.run(shell, line);
          assert.deepEqual(argv, values, `${shell.label}: ${JSON.stringify(line)}\n${stderr}`);
        }
      }),
      { numRuns: 150 },
    );
    assert.deepEqual(recorder.planted(), []);
  });

  it('mcp command: secrets that end in a backslash or hold quotes reach the client as given, literal or from the shell', async () => {
    const email = 'ann‘’"\'\\';
    const password = '; touch PWNED # $(touch PWNED2) `touch PWNED3` \'"\\';
    const recorder = await makeRecorder(['gemini', 'claude', 'codex']);
    const printed = async (client: string): Promise<string> => {
      const args = ['mcp', 'command', '--client', client, ...BASE, '--secrets', 'literal', '--show-secrets'];
      const r = await runCli([...args, '--email', email, '--password-stdin'], { input: `${password}\n` });
      assert.equal(r.code, 0, r.stderr);
      return r.stdout.trimEnd();
    };
    const gemini = await printed('gemini');
    const claude = await printed('claude-code');
    // Codex's line takes the variables from the shell ("SERVICE_EMAIL=$SERVICE_EMAIL"), which fish reads too.
    const codex = await runCli(['mcp', 'command', '--client', 'codex', ...BASE]);
    assert.equal(codex.code, 0, codex.stderr);
    for (const shell of pasteShells) {
      const added = recorder.run(shell, gemini).argv;
      assert.ok(added?.includes(`SERVICE_EMAIL=${email}`), `${shell.label}: ${gemini}\n${JSON.stringify(added)}`);
      assert.ok(added?.includes(`SERVICE_PASSWORD=${password}`), `${shell.label}: ${JSON.stringify(added)}`);
      const json = recorder.run(shell, claude).argv;
      assert.deepEqual(json?.slice(0, 3), ['mcp', 'add-json', 'service'], `${shell.label}: ${claude}`);
      const env = JSON.parse(json?.[3] ?? 'null').env;
      assert.deepEqual([env.SERVICE_EMAIL, env.SERVICE_PASSWORD], [email, password], shell.label);
      const fromShell = { SERVICE_EMAIL: email, SERVICE_PASSWORD: password };
      const forwarded = recorder.run(shell, codex.stdout.trimEnd(), fromShell).argv;
      assert.ok(forwarded?.includes(`SERVICE_EMAIL=${email}`), `${shell.label}: ${JSON.stringify(forwarded)}`);
      assert.ok(forwarded?.includes(`SERVICE_PASSWORD=${password}`), shell.label);
      assert.deepEqual(recorder.planted(), [], `${shell.label} ran a command of the secrets`);
    }
  });
});
