/**
 * A real internal error (a bug, not a user mistake): a short message and a
 * request to report it, exit 1; `--verbose` adds the stack. User mistakes
 * never show a stack (the file-argument and usage tests check that side).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Output } from '../src/core/output.js';
import { reportError } from '../src/main.js';

function capture(): { out: Output; text: () => string } {
  let written = '';
  const stream = { write: (chunk: string | Uint8Array) => ((written += String(chunk)), true), isTTY: false };
  return { out: new Output({ stdout: stream, stderr: stream, env: {} }), text: () => written };
}

test('an internal error: exit 1, the message and a request to report it; the stack only with --verbose', () => {
  const bug = new TypeError("Cannot read properties of undefined (reading 'x')");
  const quiet = capture();
  assert.equal(reportError(bug, quiet.out, false), 1);
  assert.match(
    quiet.text(),
    /^error: internal error: Cannot read properties of undefined \(reading 'x'\)\nhint: this is a bug in svcctl; please report it/,
  );
  assert.doesNotMatch(quiet.text(), /\n\s+at /, 'no stack without --verbose');
  const verbose = capture();
  assert.equal(reportError(bug, verbose.out, true), 1);
  assert.match(
    verbose.text(),
    /TypeError: Cannot read properties[^\n]*\n\s+at .*internal-errors\.test\.[jt]s/,
    'the stack, pointing at where the error was made',
  );
});
