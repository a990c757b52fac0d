import assert from 'node:assert/strict';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, runCli } from './helpers/cli.js';
import { eventLines } from './helpers/event-lines.js';
import { startRecordingServer } from './helpers/recording-server.js';

const TOKEN = 'tok-safety-31';

describe('event send --ndjson: nothing is lost, nothing runs away', () => {
  let dir: string;
  before(async () => {
    dir = await makeTempDir();
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('refuses a --failed-out that is the input file itself (exit 2, nothing sent)', async () => {
    const server = await startRecordingServer();
    try {
      const input = join(dir, 'loop.ndjson');
      await writeFile(input, 'not json\nnot json\n');
      const before = (await stat(input)).size;
      const result = await runCli(['event', 'send', '--ndjson', input, '--failed-out', input], {
        env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN },
      });
      assert.equal(result.code, 2);
      assert.match(result.stderr, /is the input itself/);
      assert.equal((await stat(input)).size, before);
      const viaStdin = await runCli(['event', 'send', '--ndjson', '-', '--failed-out', input], {
        input: await readFile(input),
        env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN },
      });
      assert.equal(viaStdin.code, 9, 'a pipe is not the file, even with the same bytes: the bad lines are appended');
      assert.equal(await readFile(input, 'utf8'), 'not json\nnot json\nnot json\nnot json\n');
    } finally {
      await server.close();
    }
  });

  it('refuses a --failed-out that is a folder before sending anything', async () => {
    const server = await startRecordingServer();
    try {
      const input = join(dir, 'ok.ndjson');
      await writeFile(input, `${eventLines(3).join('\n')}\n`);
      await mkdir(join(dir, 'a-folder'));
      const result = await runCli(['event', 'send', '--ndjson', input, '--failed-out', join(dir, 'a-folder')], {
        env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN },
      });
      assert.equal(result.code, 2);
      assert.match(result.stderr, /is a folder, not a file/);
      assert.equal(server.requests.length, 0);
    } finally {
      await server.close();
    }
  });
});
