/**
 * What svcctl shows a person, tested without a terminal (terminal.e2e.test.ts runs it at a real one): the text
 * of a batch's progress line, and no colour where stderr is not a terminal, even without NO_COLOR (chalk alone
 * does not honour NO_COLOR, and a pipe or a file must never get escape sequences).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { progressText } from '../src/events/batch-progress.js';
import { runCli } from './helpers/cli.js';

describe('the progress line of a batch', () => {
  it('counts and rate; with a file, the share done and the time left', () => {
    assert.equal(
      progressText({ sent: 500, failed: 2, seconds: 2, bytesDone: 0, totalBytes: undefined }),
      'sent 500 · failed 2 · 250/s',
    );
    // A quarter of 4 MB in 30 s: 90 s left.
    assert.equal(
      progressText({ sent: 1000, failed: 0, seconds: 30, bytesDone: 1_000_000, totalBytes: 4_000_000 }),
      'sent 1000 · failed 0 · 33/s · 25% of 4.0 MB · 1:30 left',
    );
    assert.equal(
      progressText({ sent: 10, failed: 0, seconds: 7200, bytesDone: 1, totalBytes: 3 }),
      'sent 10 · failed 0 · 0/s · 33% of 0.0 MB · 4:00:00 left',
    );
  });
});

describe('colours', () => {
  it('not on a terminal: no escape sequences, even without NO_COLOR', async () => {
    const result = await runCli(['event', 'send', '--title', 'x', '--base-url', 'http://host.example'], {
      env: { NO_COLOR: undefined, SERVICE_INGEST_TOKEN: 't' },
    });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /error: .*must end in \/api/);
    assert.ok(!result.stderr.includes('\x1b['), JSON.stringify(result.stderr));
  });
});
