import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
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
    assert.match(result.stderr, /event \S+ failed, not sent/);
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

  describe("svcctl's secret variables and the command's environment", () => {
    const secrets = {
      SERVICE_INGEST_TOKEN: 'ingest-run-5d2a',
      SERVICE_HMAC_SECRET: 'hmac-run-9e41',
      SERVICE_PASSWORD: 'password-run-77b0',
      SERVICE_ACCESS_TOKEN: 'access-run-1c3f',
      SERVICE_AUTH_HEADER: 'Bearer access-run-1c3f',
      SVC_INGEST_TOKEN: 'legacy-ingest-run-42aa',
      SVC_PASSWORD: 'legacy-password-run-0f0f',
    };
    const others = { SERVICE_EMAIL: 'me@example.com', BACKUP_TARGET: 's3://bucket/nightly' };

    /** The command's environment as NAME=value lines, written to a file by the command itself. */
    async function commandEnvironment(flags: string[], name: string): Promise<Map<string, string>> {
      const file = join(fixture.dir, `${name}.env`);
      const result = await runCli(['event', 'run', ...flags, '--', 'sh', '-c', 'env > "$1"', 'sh', file], {
        env: { ...fixture.env, ...secrets, ...others },
      });
      assert.equal(result.code, 0, result.stderr);
      const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line.includes('='));
      return new Map(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
    }

    it('by default the command gets none of them, and every other variable', async () => {
      const seen = await commandEnvironment([], 'default');
      for (const name of Object.keys(secrets)) assert.equal(seen.get(name), undefined, `${name} reached the command`);
      const text = [...seen.values()].join('\n');
      for (const value of Object.values(secrets)) assert.ok(!text.includes(value), `${value} reached the command`);
      assert.equal(seen.get('SERVICE_BASE_URL'), fixture.env.SERVICE_BASE_URL);
      assert.equal(seen.get('SERVICE_EMAIL'), others.SERVICE_EMAIL);
      assert.equal(seen.get('BACKUP_TARGET'), others.BACKUP_TARGET);
    });

    it('--pass-secrets leaves them in, for a command that sends events itself', async () => {
      const seen = await commandEnvironment(['--pass-secrets'], 'passed');
      for (const [name, value] of Object.entries(secrets)) assert.equal(seen.get(name), value, name);
      assert.equal(seen.get('BACKUP_TARGET'), others.BACKUP_TARGET);
    });

    it('a failure event is still redacted with the secrets the command did not get', async () => {
      const before = since();
      const result = await runCli(
        ['event', 'run', '--', 'sh', '-c', 'echo "pw $1" >&2; exit 1', 'sh', secrets.SERVICE_PASSWORD],
        {
          env: { ...env(), SERVICE_PASSWORD: secrets.SERVICE_PASSWORD },
        },
      );
      assert.equal(result.code, 1, result.stderr);
      assert.equal(payloadOf(fixture.server.requests[before]!.body).payload.message, 'pw ***');
    });
  });
});
