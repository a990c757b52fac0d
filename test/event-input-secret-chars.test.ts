import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { useEventFixture } from './helpers/event-fixture.js';

const HALF = 'tok-half-one';
const OTHER = 'tok-half-two';

describe('secrets with a control character are rejected (exit 2) without showing the value', () => {
  const fixture = useEventFixture('tok-unused');

  const check = (result: { code: number | null; stdout: string; stderr: string }, pattern: RegExp): void => {
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, pattern);
    assert.ok(!result.stderr.includes(HALF) && !result.stderr.includes(OTHER), 'the value is never printed');
    assert.ok(!result.stdout.includes(HALF) && !result.stdout.includes(OTHER));
  };

  it('an ingest token file with two lines', async () => {
    const file = join(fixture.dir, 'two-lines.txt');
    await writeFile(file, `${HALF}\n${OTHER}\n`, { mode: 0o600 });
    const result = await runCli(['event', 'send', '--title', 'x', '--token-file', file], {
      env: { SERVICE_BASE_URL: fixture.server.baseUrl },
    });
    check(result, /the ingest token in .*two-lines\.txt contains a line break/);
    assert.equal(fixture.server.requests.length, 0);
  });

  it('an ingest token variable with a CR, and one with an escape character', async () => {
    const cr = await runCli(['event', 'send', '--title', 'x'], {
      env: { SERVICE_BASE_URL: fixture.server.baseUrl, SERVICE_INGEST_TOKEN: `${HALF}\r${OTHER}` },
    });
    check(cr, /SERVICE_INGEST_TOKEN \(the ingest token\) contains a line break/);
    const esc = await runCli(['event', 'send', '--title', 'x'], {
      env: { SERVICE_BASE_URL: fixture.server.baseUrl, SVC_INGEST_TOKEN: `${HALF}\x1b${OTHER}` },
    });
    check(esc, /SVC_INGEST_TOKEN \(the ingest token\) contains a control character \(U\+001B\)/);
    assert.equal(fixture.server.requests.length, 0);
  });

  it('an HMAC secret file holding a NUL character (event sign)', async () => {
    const file = join(fixture.dir, 'nul.secret');
    await writeFile(file, `${HALF}\0${OTHER}`, { mode: 0o600 });
    const result = await runCli(['event', 'sign', '-', '--hmac-secret-file', file], { input: '{}' });
    check(result, /the HMAC secret in .*nul\.secret contains a NUL character/);
  });

  it('a password read from stdin with an inner line break (login)', async () => {
    const result = await runCli(['login', '--email', 'a@example.com', '--password-stdin'], {
      env: { SERVICE_BASE_URL: fixture.server.baseUrl },
      input: `${HALF}\n${OTHER}\n`,
    });
    check(result, /the password read from stdin contains a line break/);
    assert.equal(fixture.server.requests.length, 0);
  });

  it('a tab and one trailing newline are fine', async () => {
    const file = join(fixture.dir, 'tab.txt');
    await writeFile(file, `${HALF}\t${OTHER}\n`, { mode: 0o600 });
    const result = await runCli(['event', 'send', '--title', 'x', '--token-file', file], {
      env: { SERVICE_BASE_URL: fixture.server.baseUrl },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(fixture.server.requests.at(-1)!.headers.authorization, `Bearer ${HALF}\t${OTHER}`);
  });

  it('an ingest token with a character that cannot travel in a header (exit 2, not a network error)', async () => {
    const sentBefore = fixture.server.requests.length;
    const result = await runCli(['event', 'send', '--title', 'x'], {
      env: { SERVICE_BASE_URL: fixture.server.baseUrl, SERVICE_INGEST_TOKEN: `${HALF}€` },
    });
    check(
      result,
      /SERVICE_INGEST_TOKEN \(the ingest token\) contains a character that cannot be sent in an HTTP header/,
    );
    assert.equal(fixture.server.requests.length, sentBefore, 'nothing was sent');
  });
});
