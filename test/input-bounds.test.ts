/**
 * What svcctl reads whole is bounded (issue 47, "Bad files never hang or crash svcctl"): a FILE, `--payload-file` or
 * `-` holds one event, read up to 16 MiB (docs/security.md, "Files svcctl reads whole"), an NDJSON line is cut off at
 * the same size while the stream as a whole may go on for ever, and a password or token from stdin at 64 KiB. `/dev/zero` or a pipe without end used to be
 * read until memory ran out. Inputs here are 17 MiB and then end, so that the code before the fix finishes too
 * (and fails these tests); the bytes a stdin gave show that svcctl stopped reading at the cap.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { startRecordingServer, type RecordingServer } from './helpers/recording-server.js';
import { tempDir } from './helpers/temp-dirs.js';

const MIB = 1024 * 1024;
const OVER = 17 * MIB;
const CHUNK = 64 * 1024;
const ENV = { SERVICE_INGEST_TOKEN: 'tok-bounds-1' };

/** 17 MiB of `x` without a line feed after `head`, in 64 KiB chunks, counting what svcctl pulled. */
function stdinOf(head = ''): { stdin: Readable; pulled: () => number } {
  let pulled = 0;
  function* chunks(): Generator<Buffer> {
    if (head) yield Buffer.from(head);
    for (let sent = 0; sent < OVER; sent += CHUNK) {
      pulled += CHUNK;
      yield Buffer.alloc(CHUNK, 'x');
    }
  }
  return { stdin: Readable.from(chunks(), { objectMode: false, highWaterMark: CHUNK }), pulled: () => pulled };
}

/** A sparse file of 17 MiB: its size is what svcctl looks at; no disk is used. */
async function sparseFile(dir: string, name: string): Promise<string> {
  const path = join(dir, name);
  const handle = await open(path, 'w');
  await handle.truncate(OVER);
  await handle.close();
  return path;
}

let server: RecordingServer;
let dir: string;
before(async () => {
  server = await startRecordingServer();
  dir = await tempDir('svcctl-event-bounds-');
});
after(() => server?.close());

const send = (args: string[], options: { stdin?: Readable } = {}) =>
  runCli(['event', 'send', ...args], { env: { ...ENV, SERVICE_BASE_URL: server.baseUrl }, cwd: dir, ...options });

describe('one event: FILE, --payload-file and - are read up to 16 MiB', () => {
  it('a FILE over 16 MiB: exit 2 by its size, nothing sent', async () => {
    const before = server.requests.length;
    const result = await send([await sparseFile(dir, 'big.json')]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /big\.json is 17 MiB, over the limit of 16 MiB/);
    assert.doesNotMatch(result.stderr, /give a regular file/, 'it is one: only its size is wrong');
    assert.equal(server.requests.length, before);
  });

  it('--payload-file over 16 MiB: exit 2 naming the flag', async () => {
    const result = await send(['--title', 't', '--payload-file', await sparseFile(dir, 'payload.json')]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /--payload-file: .*payload\.json is 17 MiB, over the limit of 16 MiB/);
  });

  it('stdin (-) that gives more than 16 MiB: exit 2, and the rest of it is not read', async () => {
    const { stdin, pulled } = stdinOf();
    const result = await send(['-'], { stdin });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /stdin gave more than 16 MiB/);
    assert.ok(pulled() < 16 * MIB + 4 * CHUNK, `pulled ${pulled()} bytes`);
  });

  it('a FIFO another program writes is read as it comes, up to 16 MiB (exit 2 past it)', async () => {
    const fifo = join(dir, 'events.fifo');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    const writer = createWriteStream(fifo);
    writer.on('error', () => {}); // EPIPE once svcctl stops reading
    const chunk = Buffer.alloc(CHUNK, 'x');
    const writing = (async () => {
      for (let sent = 0; sent < OVER && !writer.destroyed; sent += CHUNK)
        if (!writer.write(chunk)) await new Promise<void>((done) => writer.once('drain', done).once('close', done));
      writer.end();
    })();
    const result = await send([fifo]);
    writer.destroy();
    await writing;
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /events\.fifo gave more than 16 MiB/);
  });

  it('a device (/dev/zero) is never opened: exit 2 at once', async () => {
    for (const args of [['/dev/zero'], ['--title', 't', '--payload-file', '/dev/zero']]) {
      const result = await send(args);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /\/dev\/zero is a device, not a regular file/);
      assert.match(result.stderr, /hint: give a regular file or a pipe/);
    }
  });
});

describe('--ndjson: the stream may be long, each line is bounded', () => {
  it('a line of more than 16 MiB without a line feed: exit 3 naming it, the lines before it sent', async () => {
    const before = server.requests.length;
    const { stdin, pulled } = stdinOf('{"title":"before the long line"}\n');
    const result = await send(['--ndjson', '-'], { stdin });
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, /line 2: more than 16 MiB without a line feed, over the limit of one event/);
    assert.equal(server.requests.length - before, 1);
    assert.ok(pulled() < 16 * MIB + 4 * CHUNK, `pulled ${pulled()} bytes`);
  });
});

describe('a secret or a token from stdin: 64 KiB, as a secret file', () => {
  const BIG = 'x'.repeat(70 * 1024);

  it('login --password-stdin of more than 64 KiB: exit 2 before anything is sent', async () => {
    const before = server.requests.length;
    const result = await runCli(['login', '--password-stdin', '--email', 'ops@example.com'], {
      env: { SERVICE_BASE_URL: server.baseUrl },
      input: BIG,
    });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /--password-stdin: stdin gave more than 64 KiB/);
    assert.equal(server.requests.length, before);
  });

  it('token inspect - of more than 64 KiB: exit 2', async () => {
    const result = await runCli(['token', 'inspect', '-'], { input: BIG });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /stdin gave more than 64 KiB/);
  });
});
