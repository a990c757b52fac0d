/**
 * What `event send` and `event run` print is what happened (issue 49, item 9), against the sandbox in-process: an
 * event piped in without `-` is not "no event" without a word about the pipe; an id the service already had is
 * "already received", not "sent"; `event run --json` names its line as svcctl's, as without --json.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { startDev, type DevServer } from './helpers/dev-sandbox.js';

let dev: DevServer;
let env: Record<string, string>;
before(async () => {
  dev = await startDev(['--webhook', 'ci']);
  env = { SERVICE_BASE_URL: dev.ready.base_url, SERVICE_INGEST_TOKEN: dev.ready.webhooks[0]!.ingest_token };
});
after(async () => {
  await dev?.stop();
});

describe('event send and event run say what happened', () => {
  it('an event piped in without `-`: exit 2, and the hint says to add -', async () => {
    const result = await runCli(['event', 'send'], { env, input: '{"title":"piped"}' });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /^error: no event: give --title/m);
    assert.match(
      result.stderr,
      /stdin is not a terminal: if the event comes through a pipe, add - \(… \| svcctl event send -\)/,
    );
    // The hint works: the same input with - is sent.
    const withDash = await runCli(['event', 'send', '-'], { env, input: '{"title":"piped"}' });
    assert.equal(withDash.code, 0, withDash.stderr);
  });

  it('a repeated --raw event the service answers as a duplicate: "already received", and the first "sent"', async () => {
    const id = randomUUID();
    const body = JSON.stringify({
      event: { id, created_at: new Date().toISOString(), title: 'twice', payload: '{}' },
    });
    const first = await runCli(['event', 'send', '--raw', '-'], { env, input: body });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, new RegExp(`^event ${id} sent: HTTP 202 after 1 attempt$`, 'm'));
    const again = await runCli(['event', 'send', '--raw', '-'], { env, input: body });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, `${id}\n`);
    assert.match(
      again.stderr,
      new RegExp(
        `^event ${id} already received: the service had this id and did not store it again \\(HTTP 200 after 1 attempt\\)$`,
        'm',
      ),
    );
    assert.doesNotMatch(again.stderr, / sent:/);
    // Stored once, as the sandbox's own count says.
    const stored = await dev.waitForStderr(new RegExp(`duplicate ${id}`));
    assert.equal(stored.match(new RegExp(`accepted ${id}`, 'g'))?.length, 1);
  });

  it('event run --json: the outcome line keeps its `svcctl:` prefix on stderr', async () => {
    // A failing command is what sends an event.
    const failing = ['event', 'run', '--', 'sh', '-c', 'exit 3'];
    const plain = await runCli(failing, { env });
    assert.equal(plain.code, 3, plain.stderr);
    assert.match(plain.stderr, /^svcctl: event \S+ sent: HTTP 202/m);
    const json = await runCli(['--json', ...failing], { env });
    assert.equal(json.code, 3, json.stderr);
    assert.match(json.stderr, /^svcctl: event \S+ sent: HTTP 202/m);
    assert.doesNotMatch(json.stderr, /^event \S+ sent/m);
  });
});
