/**
 * How the docs test reads the documentation (test/helpers/doc-blocks.ts), without running a block: its markers,
 * and what breaks a block pasted into a terminal. Running the blocks: docs-blocks.e2e.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pasteProblems, shellBlocks } from './helpers/doc-blocks.js';

describe('the docs test itself', () => {
  it('reads markers, and refuses one it does not know', () => {
    const text = [
      '<!-- docs-test: skip (a placeholder host) -->',
      '',
      '```sh',
      'svcctl login',
      '```',
      '<!-- docs-test: sandbox -->',
      '```bash',
      'svcctl token',
      '```',
      '```json',
      '{}',
      '```',
    ].join('\n');
    const found = shellBlocks('x.md', text);
    assert.deepEqual(
      found.map((block) => [block.line, block.mode]),
      [
        [3, { kind: 'skip', reason: 'a placeholder host' }],
        [7, { kind: 'sandbox' }],
      ],
    );
    assert.throws(
      () => shellBlocks('x.md', '<!-- docs-test: skpi -->\n```sh\ntrue\n```'),
      /x\.md:2: unknown docs-test marker 'skpi'/,
    );
  });

  it('finds what breaks a pasted block: # comments, ! in double quotes (not inside single quotes)', () => {
    assert.deepEqual(pasteProblems("echo 'a # b' \"c#d\"\necho 'wow!'"), []);
    assert.equal(pasteProblems('svcctl token   # the token').length, 1);
    assert.equal(pasteProblems('# a note\ntrue').length, 1);
    assert.equal(pasteProblems('echo "done!"').length, 1);
  });
});
