/**
 * `svcctl dev --events-file`, in-process: the file is opened once without following a link and checked before a
 * byte of it is read, so a link, a FIFO, a device or an oversized file is refused without reading it (nor
 * hanging on it), and a regular file of the user's is read back from that same descriptor.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, constants, openSync } from 'node:fs';
import { link, readFile, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { EVENTS_FILE_READ_LIMIT } from '../src/sandbox/event-store.js';
import { runCli } from './helpers/cli.js';
import { httpRequest, startDev } from './helpers/dev-sandbox.js';
import { tempDir } from './helpers/temp-dirs.js';

const POSIX = process.platform !== 'win32';
// Well above a refusal's milliseconds, well below the runner's own timeout: a hang shows as code null.
const GUARD_MS = 5_000;

const devWith = (file: string) => runCli(['dev', '--port', '0', '--events-file', file], { timeoutMs: GUARD_MS });

/** A file of 24 lines that are not stored events, as /etc/shadow would be. */
async function someoneElsesFile(dir: string): Promise<string> {
  const target = join(dir, 'shadow');
  await writeFile(target, Array.from({ length: 24 }, (_, i) => `user${i}:*:20000:0:99999:7:::\n`).join(''));
  return target;
}

const stored = (id: string): string =>
  `${JSON.stringify({
    received_at: '2026-11-25T10:00:00.000Z',
    webhook: 'open',
    event: { id, title: 'earlier', created_at: '2026-11-25T10:00:00.000Z', investigate: false, payload: '{}' },
  })}\n`;

describe('svcctl dev --events-file: checked before it is read', { concurrency: true }, () => {
  it('a symbolic link is refused with exit 2, and what it leads to is not read', { skip: !POSIX }, async () => {
    const dir = await tempDir('svcctl-events-file-');
    const target = await someoneElsesFile(dir);
    const before = await readFile(target, 'utf8');
    const file = join(dir, 'events.ndjson');
    await symlink(target, file);
    const result = await devWith(file);
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /--events-file '.*events\.ndjson' is a symbolic link, which svcctl does not write through/,
    );
    assert.doesNotMatch(result.stderr, /\b24 lines|skipped/, 'nothing tells how many lines the target has');
    assert.equal(await readFile(target, 'utf8'), before);
  });

  it('a second hard link is refused with exit 7, and its lines are not read', { skip: !POSIX }, async () => {
    const dir = await tempDir('svcctl-events-file-');
    const file = join(dir, 'events.ndjson');
    await link(await someoneElsesFile(dir), file);
    const result = await devWith(file);
    assert.equal(result.code, 7, result.stderr);
    assert.match(result.stderr, /has 2 hard links/);
    assert.doesNotMatch(result.stderr, /\b24 lines|skipped/);
  });

  it('a FIFO is refused at once (exit 2), never waited on', { skip: !POSIX }, async () => {
    const dir = await tempDir('svcctl-events-file-');
    const fifo = join(dir, 'events.ndjson');
    execFileSync('mkfifo', [fifo]);
    try {
      const result = await devWith(fifo);
      assert.equal(result.timedOut, false, `svcctl dev still waited on the FIFO after ${GUARD_MS} ms`);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /--events-file '.*events\.ndjson' is a named pipe \(FIFO\), not a regular file/);
    } finally {
      // A reader still blocked on it (the bug) is let go, so the test process can end.
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {}
    }
  });

  it('a device such as /dev/zero is refused (exit 2), not read until memory runs out', { skip: !POSIX }, async () => {
    const result = await devWith('/dev/zero');
    assert.equal(result.timedOut, false);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /--events-file '\/dev\/zero' is a device, not a regular file/);
  });

  it('a file larger than the limit is refused (exit 2) before it is read', async () => {
    const dir = await tempDir('svcctl-events-file-');
    const file = join(dir, 'events.ndjson');
    await writeFile(file, '');
    // Sparse: no disk is used, and a read of it would return zeros, not stored events.
    await truncate(file, EVENTS_FILE_READ_LIMIT + 1);
    const result = await devWith(file);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /--events-file '.*events\.ndjson' is larger than 256 MiB/);
    assert.match(result.stderr, /move it aside or name a new file/);
  });

  it('a regular file of yours is read back: its ids are known, other lines are counted as skipped', async () => {
    const dir = await tempDir('svcctl-events-file-');
    const file = join(dir, 'events.ndjson');
    const earlier = randomUUID();
    await writeFile(file, `${stored(earlier)}not an event\n`, { mode: 0o600 });
    const dev = await startDev(['--webhook', 'open', '--events-file', file]);
    try {
      assert.match(dev.stderr(), /events\.ndjson: 1 line that is not a stored event was skipped/);
      const token = dev.ready.webhooks.find((w) => w.name === 'open')!.ingest_token;
      const post = (id: string) =>
        httpRequest(`${dev.ready.base_url}/v1/event`, {
          body: JSON.stringify({
            event: { id, title: 't', created_at: '2026-11-25T10:01:00.000Z', investigate: false, payload: '{}' },
          }),
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        });
      assert.equal((await post(earlier)).status, 200, 'an id read back is a repeat');
      const fresh = randomUUID();
      assert.equal((await post(fresh)).status, 202);
      const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
      assert.equal(lines.length, 3, 'the new event is appended after what was there');
      assert.equal(JSON.parse(lines[2]!).event.id, fresh);
    } finally {
      await dev.stop();
    }
  });
});
