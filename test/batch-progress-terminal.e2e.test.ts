/**
 * A batch on a terminal that shows both stdout and stderr: the progress line
 * (stderr) is cleared before each block of ids (stdout), so every id is on a
 * line of its own as the terminal shows it; with a file as input the progress
 * line gives the share done and the time left. Rendering is simulated the way
 * a terminal draws a line: what follows its last carriage return, without the
 * erase-line sequence.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { progressText } from '../src/events/batch-progress.js';
import { BIN } from './helpers/cli.js';
import { startRecordingServer } from './helpers/recording-server.js';
import { hasScript, shellQuote, underTerminal } from './helpers/terminal.js';
import { tempDir } from './helpers/temp-dirs.js';

const COUNT = 20_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const rendered = (line: string): string =>
  (line.replace(/\r$/, '').split('\r').at(-1) ?? '').replaceAll('\x1b[2K', '').replace(/\x1b\[[0-9;]*m/g, '');

describe('progress on a terminal', () => {
  it(`${COUNT} events with stdout and stderr on one terminal: every id on a clean line`, {
    skip: !hasScript && 'util-linux script is not installed',
    timeout: 120_000,
  }, async () => {
    const server = await startRecordingServer();
    try {
      const home = await tempDir('svcctl-progress-');
      const file = join(home, 'events.ndjson');
      await writeFile(
        file,
        `${Array.from({ length: COUNT }, (_, i) => JSON.stringify({ title: `event ${i}` })).join('\n')}\n`,
      );
      const command = `${shellQuote(process.execPath)} ${shellQuote(BIN)} event send --ndjson ${shellQuote(file)} --concurrency 16`;
      const session = underTerminal(command, home, {
        SERVICE_BASE_URL: server.baseUrl,
        SERVICE_INGEST_TOKEN: 'ingest-token-1234',
        NO_COLOR: '1',
      });
      assert.equal(await session.done, 0, session.screen().slice(-2000));
      const lines = session.screen().split('\n').map(rendered);
      const ids = lines.filter((line) => UUID.test(line.trim()));
      assert.equal(ids.length, COUNT, 'every id on a line of its own');
      const mixed = lines.filter((line) => /\/s/.test(line) && /[0-9a-f]{8}-[0-9a-f]{4}/.test(line));
      assert.deepEqual(mixed.slice(0, 3), [], 'no progress text runs into an id');
      assert.equal(server.requests.length, COUNT);
      assert.match(
        session.screen(),
        /sent \d+ · failed 0 · \d+\/s · \d+% of 0\.\d MB · \d+:\d\d left/,
        'a file input shows its share done and the time left',
      );
    } finally {
      await server.close();
    }
  });

  it('the progress text: counts and rate; with a file, the share done and the time left', () => {
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
