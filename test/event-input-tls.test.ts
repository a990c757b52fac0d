import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { useEventFixture } from './helpers/event-fixture.js';

describe('https to a plain-http port is explained in words', () => {
  const fixture = useEventFixture('tok-tls', (server) => `https://127.0.0.1:${new URL(server.origin).port}/api`);

  const expected = (): string =>
    `the server at 127.0.0.1:${new URL(fixture.server.origin).port} did not answer TLS (is it plain http? try http://)`;

  it('one event (Node http client): no OpenSSL text, not retried', async () => {
    const result = await runCli(['event', 'send', '--title', 'x'], { env: fixture.env });
    assert.equal(result.code, 6, result.stderr);
    assert.ok(result.stderr.includes(expected()), result.stderr);
    assert.doesNotMatch(result.stderr, /EPROTO|wrong version number|retrying/);
  });

  it('a batch (undici pool): the same words for each line', async () => {
    const file = join(fixture.dir, 'two.ndjson');
    await writeFile(file, '{"title":"a"}\n{"title":"b"}\n');
    const result = await runCli(['event', 'send', '--ndjson', file], { env: fixture.env });
    assert.equal(result.code, 6, result.stderr); // a failure every line would meet stops the batch
    assert.ok(result.stderr.includes(expected()), result.stderr);
    assert.doesNotMatch(result.stderr, /EPROTO|wrong version number/);
  });
});
