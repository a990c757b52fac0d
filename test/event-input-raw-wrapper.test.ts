import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { useEventFixture } from './helpers/event-fixture.js';

const EVENT = '{"id":"6f1c2a4e-8b7d-4c3e-9f0a-1b2c3d4e5f60","title":"x","created_at":"2026-11-22T02:31:00.000Z"}';
const WRAPPER = /with --raw the body must be \{"event": \{\.\.\.\}\} \(without --raw a bare event is wrapped for you\)/;

describe('event send --raw: the body must be {"event": {...}}', () => {
  const fixture = useEventFixture('tok-raw');

  it('a bare event with --raw is exit 3 and nothing is sent', async () => {
    const file = join(fixture.dir, 'bare.json');
    await writeFile(file, EVENT);
    const result = await runCli(['event', 'send', file, '--raw'], { env: fixture.env });
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, WRAPPER);
    assert.equal(fixture.server.requests.length, 0);
  });

  it('the same bare event without --raw is wrapped and sent', async () => {
    const file = join(fixture.dir, 'bare.json');
    await writeFile(file, EVENT);
    const result = await runCli(['event', 'send', file], { env: fixture.env });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(fixture.server.requests.length, 1);
    assert.equal(JSON.parse(fixture.server.requests[0]!.body.toString()).event.title, 'x');
  });

  it('an NDJSON line with a bare event under --raw fails with its line number; wrapped lines are sent byte for byte', async () => {
    const file = join(fixture.dir, 'raw.ndjson');
    const wrapped = `{"event":${EVENT}}`;
    await writeFile(file, `${wrapped}\n${EVENT}\n`);
    const before = fixture.server.requests.length;
    const result = await runCli(['event', 'send', '--ndjson', file, '--raw', '--retries', '0'], { env: fixture.env });
    assert.equal(result.code, 9, result.stderr);
    assert.match(result.stderr, new RegExp(`line 2: ${WRAPPER.source}`));
    assert.equal(fixture.server.requests.length, before + 1);
    assert.equal(fixture.server.requests[before]!.body.toString(), wrapped);
  });
});
