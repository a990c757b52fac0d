/**
 * A refused connection to this computer (127.0.0.0/8, localhost, ::1) means no sandbox or service listens there:
 * svcctl says so with the way to start a sandbox, and spends no retries on it; a refused connection to another
 * host is still retried (a service restarting behind a load balancer).
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { describeNetworkError } from '../src/http/network-errors.js';
import { runCli } from './helpers/cli.js';

/** A port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as import('node:net').AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const refused = (): Error => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

describe('a refused connection to this computer', () => {
  it('event send: one attempt, exit 6, naming what is missing and how to start a sandbox', async () => {
    const port = await closedPort();
    const result = await runCli(['event', 'send', '--title', 'x'], {
      env: { SERVICE_BASE_URL: `http://127.0.0.1:${port}/api`, SERVICE_INGEST_TOKEN: 'ing_token_1234' },
    });
    assert.equal(result.code, 6, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(
        `error: (?:event [0-9a-f-]{36} failed, not sent: )?connection refused by 127\\.0\\.0\\.1:${port}: no sandbox or service is listening at http://127\\.0\\.0\\.1:${port}\\n`,
      ),
    );
    assert.match(
      result.stderr,
      /hint: start one with `eval "\$\(svcctl dev --detach --format sh\)"`.*check SERVICE_BASE_URL/,
    );
    assert.doesNotMatch(result.stderr, /retrying/, 'no retry of a refused loopback connection');
  });

  it('login says the same', async () => {
    const port = await closedPort();
    const result = await runCli(['login', '--password-stdin'], {
      env: { SERVICE_BASE_URL: `http://localhost:${port}/api`, SERVICE_EMAIL: 'a@example.com' },
      input: 'pw\n',
    });
    assert.equal(result.code, 6, result.stderr);
    assert.match(result.stderr, new RegExp(`no sandbox or service is listening at http://localhost:${port}`));
  });

  it('every loopback form is not retried; another host is, with the words it had', () => {
    for (const url of [
      'http://127.0.0.1:9/api',
      'http://127.8.9.10:9/api',
      'http://localhost:9/api',
      'http://[::1]:9/api',
    ]) {
      const problem = describeNetworkError(refused(), url, 10);
      assert.equal(problem.retryable, false, url);
      assert.match(problem.message, /no sandbox or service is listening at/, url);
    }
    const remote = describeNetworkError(refused(), 'https://events.example.com/api', 10);
    assert.equal(remote.retryable, true);
    assert.equal(remote.message, 'connection refused by events.example.com');
    assert.equal(remote.hint, 'is the service running, and is the base URL right?');
  });
});
