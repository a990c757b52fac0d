/**
 * What needs a terminal (util-linux script(1)) or an OS keychain (a Secret Service in a private D-Bus session):
 * a batch's progress line on a terminal.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { BIN, cleanEnv } from './helpers/cli.js';
import { eventLines } from './helpers/event-lines.js';
import { accepted, startRecordingServer } from './helpers/recording-server.js';
import { hasScript } from './helpers/terminal.js';
import { tempDir } from './helpers/temp-dirs.js';

describe('at a terminal', { concurrency: true }, () => {
  it('event send --ndjson shows a progress line on a terminal (run under script(1))', {
    skip: !hasScript && 'util-linux script is not installed',
  }, async () => {
    // Slow answers keep the batch running for over a second, long enough for progress lines.
    const server = await startRecordingServer(async (request, index) => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      return accepted(request, index);
    });
    try {
      const dir = await tempDir();
      const input = join(dir, 'tty.ndjson');
      await writeFile(input, `${eventLines(1000).join('\n')}\n`);
      const command = `${process.execPath} ${BIN} event send --ndjson ${input} --concurrency 2 > /dev/null`;
      const { stdout } = await promisify(execFile)('script', ['-qfec', command, '/dev/null'], {
        env: cleanEnv(dir, { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 'tok-batch-77' }),
        timeout: 30_000,
      });
      assert.match(stdout, /\r\x1b\[2Ksent \d+ · failed 0 · \d+\/s/);
      assert.match(stdout, /sent 1000, failed 0 in/);
      assert.equal(server.requests.length, 1000);
    } finally {
      await server.close();
    }
  });
});
