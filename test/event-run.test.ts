import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { useEventFixture } from './helpers/event-fixture.js';

const TOKEN = 'tok-run-7c1f';
const SECRET = 'sec-run-03be';

function payloadOf(body: Buffer): {
  title: string;
  investigate: boolean;
  payload: Record<string, unknown> & { labels: Record<string, string> };
} {
  const event = JSON.parse(body.toString('utf8')).event;
  return { ...event, payload: JSON.parse(event.payload) };
}

describe('event run', () => {
  const fixture = useEventFixture(TOKEN);
  const env = () => ({ ...fixture.env, SERVICE_HMAC_SECRET: SECRET });
  const since = () => fixture.server.requests.length;

  it('a failing command: its exit code, one signed event with the tail, exit code and duration', async () => {
    const before = since();
    const result = await runCli(['event', 'run', '--', 'sh', '-c', 'echo oops >&2; sleep 0.2; exit 3'], {
      env: env(),
    });
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, /^oops$/m, 'stderr passes through');
    assert.equal(result.stdout, '', 'svcctl writes nothing on stdout: it belongs to the command');
    const requests = fixture.server.requests.slice(before);
    assert.equal(requests.length, 1);
    const expected = `sha256=${createHmac('sha256', SECRET).update(requests[0]!.body).digest('hex')}`;
    assert.equal(requests[0]!.headers['x-hub-signature-256'], expected);
    const event = payloadOf(requests[0]!.body);
    assert.equal(event.title, 'sh failed (exit 3)');
    assert.equal(event.payload.severity, 'error');
    assert.equal(event.payload.message, 'oops');
    assert.equal(event.payload.labels.exit_code, '3');
    assert.ok(Number(event.payload.labels.duration_ms) >= 200, event.payload.labels.duration_ms);
    assert.equal(event.payload.labels.command, 'sh', 'arguments are hidden without --show-args');
  });

  it('a succeeding command sends nothing, and one info event with --always', async () => {
    const before = since();
    const quiet = await runCli(['event', 'run', '--', 'true'], { env: env() });
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.equal(since(), before);
    const always = await runCli(
      ['event', 'run', '--always', '--show-args', '--label', 'job=x', '--', 'sh', '-c', 'exit 0'],
      { env: env() },
    );
    assert.equal(always.code, 0, always.stderr);
    assert.equal(since(), before + 1);
    const event = payloadOf(fixture.server.requests.at(-1)!.body);
    assert.equal(event.title, 'sh succeeded');
    assert.equal(event.payload.severity, 'info');
    assert.equal(event.payload.labels.command, 'sh -c exit 0');
    assert.equal(event.payload.labels.job, 'x');
  });

  it('a command killed by SIGTERM: exit 143 and the signal in the labels', async () => {
    const before = since();
    const result = await runCli(['event', 'run', '--investigate', '--', 'sh', '-c', 'kill -TERM $$'], { env: env() });
    assert.equal(result.code, 143, result.stderr);
    const event = payloadOf(fixture.server.requests[before]!.body);
    assert.equal(event.payload.labels.signal, 'SIGTERM');
    assert.equal(event.investigate, true);
  });

  it('a command that does not exist: exit 127 and an event about it', async () => {
    const before = since();
    const result = await runCli(['event', 'run', '--', 'no-such-command-svcctl-test'], { env: env() });
    assert.equal(result.code, 127, result.stderr);
    const event = payloadOf(fixture.server.requests[before]!.body);
    assert.match(event.title, /no-such-command-svcctl-test could not start/);
    assert.equal(event.payload.labels.exit_code, '127');
  });

  it('secrets of the environment are redacted in the tail; --tail keeps the last lines', async () => {
    const before = since();
    const script = 'for i in 1 2 3 4 5; do echo "line $i" >&2; done; echo "token is $MY_API_TOKEN" >&2; exit 1';
    const result = await runCli(['event', 'run', '--tail', '2', '--', 'sh', '-c', script], {
      env: { ...env(), MY_API_TOKEN: 'hunter2-very-secret' },
    });
    assert.equal(result.code, 1);
    assert.equal(payloadOf(fixture.server.requests[before]!.body).payload.message, 'line 5\ntoken is ***');
  });

  it('a send that fails never changes the exit code', async () => {
    const result = await runCli(['event', 'run', '--retries', '0', '--', 'sh', '-c', 'exit 4'], {
      env: { ...env(), SERVICE_BASE_URL: 'http://127.0.0.1:9/api' },
    });
    assert.equal(result.code, 4);
    assert.match(result.stderr, /the event was not sent/);
  });

  it('--dry-run prints the event and sends nothing', async () => {
    const before = since();
    const result = await runCli(['event', 'run', '--dry-run', '--', 'sh', '-c', 'echo oops >&2; exit 3'], {
      env: env(),
    });
    assert.equal(result.code, 3, result.stderr);
    assert.equal(since(), before);
    assert.match(result.stdout, /sh failed \(exit 3\)/);
  });
});
