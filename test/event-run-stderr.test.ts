/**
 * The command's stderr goes through svcctl to its own stderr with back-pressure: while svcctl's stderr is full
 * (a write answered false, no 'drain' yet) svcctl stops reading, so the command blocks on its full pipe instead of
 * svcctl holding all it writes in memory; each 'drain' lets it go on. runCommand is driven directly with a stderr
 * that decides when it drains.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCommand, TAIL_BUFFER_BYTES } from '../src/events/run-process.js';

/** Far more than a pipe (64 KiB on Linux) and svcctl's read buffer hold together. */
const TOTAL = 8 * 1024 * 1024;
const WRITER = `process.stderr.write(Buffer.alloc(${TOTAL}, 120))`;

interface SlowStderr {
  write(chunk: Uint8Array): boolean;
  once(event: 'drain', listener: () => void): unknown;
  received: number;
}

/** Every write is answered "full"; `drains` says whether a 'drain' follows it. */
function slowStderr(drains: boolean): SlowStderr {
  const stderr: SlowStderr = {
    received: 0,
    write(chunk) {
      stderr.received += chunk.length;
      return false;
    },
    once(_event, listener) {
      if (drains) setImmediate(listener);
    },
  };
  return stderr;
}

const run = (stderr: SlowStderr, timeoutMs: number) =>
  runCommand({
    command: process.execPath,
    args: ['-e', WRITER],
    env: { PATH: process.env.PATH },
    cwd: process.cwd(),
    platform: process.platform,
    stderr,
    timeoutMs,
    graceMs: 200,
    onSignal: () => () => undefined,
  });

describe('event run: back-pressure on stderr', () => {
  it('a stderr that never drains: svcctl stops reading, so the command cannot finish writing and the timeout ends it', async () => {
    const stderr = slowStderr(false);
    const outcome = await run(stderr, 1500);
    assert.equal(outcome.timedOut, true, `the command wrote all ${TOTAL} bytes into svcctl's memory`);
    assert.ok(stderr.received < TOTAL, `${stderr.received} bytes passed on`);
  });

  it('a stderr that drains after each write: every byte passes, and the command ends on its own', async () => {
    const stderr = slowStderr(true);
    const outcome = await run(stderr, 60_000);
    assert.equal(outcome.timedOut, false);
    assert.equal(outcome.code, 0);
    assert.equal(stderr.received, TOTAL);
    assert.deepEqual(outcome.stderrTail, Buffer.alloc(TAIL_BUFFER_BYTES, 120));
  });
});
