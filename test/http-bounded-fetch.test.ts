/**
 * fetch (`mcp doctor`'s probes) ends on the same attempt deadline as svcctl's own transports (attempt-deadline.ts:
 * the phase reached in the error, the clock a test moves) and reads no more than their body caps (body-limit.ts:
 * 1 MiB of a 2xx, 64 KiB of anything else). Misbehaving servers on 127.0.0.1; time is moved, not waited for.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { BodyTooLarge, boundedFetch } from '../src/http/bounded-fetch.js';
import { type AttemptPhase, DeadlineExceeded, runningPhases, useDeadlineClock } from '../src/http/attempt-deadline.js';
import { startHostileServer, type HostileServer, type Misbehaviour } from './helpers/hostile-server.js';
import { manualClock } from './helpers/manual-clock.js';
import { pollUntil } from './helpers/poll.js';

const clock = manualClock();
let restore: () => void = () => undefined;
const servers: HostileServer[] = [];
let plain: Server;
let plainUrl: string;
before(async () => {
  restore = useDeadlineClock(clock);
  plain = createServer((_req, res) => res.end('{"ok":true}'));
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/`;
});
after(async () => {
  restore();
  await Promise.all(servers.map((server) => server.close()));
  await new Promise((resolve) => plain.close(resolve));
});

async function hostile(how: Misbehaviour): Promise<string> {
  const server = await startHostileServer(how);
  servers.push(server);
  return `${server.baseUrl}/mcp`;
}

const reached = async (phase: AttemptPhase): Promise<void> => {
  await pollUntil(
    () => `the running attempts: ${runningPhases().join(', ') || 'none'}`,
    () => runningPhases().length === 1 && runningPhases()[0] === phase,
    { withinMs: 10_000, everyMs: 5 },
  );
};

/** Moves the clock to just short of the deadline (nothing may end), then onto it. */
async function expireAfter(timeoutMs: number, outcome: { settled: boolean }): Promise<void> {
  clock.advance(timeoutMs - 1);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(outcome.settled, false, 'ended before its deadline');
  clock.advance(1);
}

function watch<T>(promise: Promise<T>): { settled: boolean; promise: Promise<T> } {
  const outcome = { settled: false, promise };
  promise.then(
    () => (outcome.settled = true),
    () => (outcome.settled = true),
  );
  return outcome;
}

describe('fetch with the transports’ deadline and caps', { timeout: 30_000 }, () => {
  it('no headers: ends at the deadline on the moved clock, naming the headers', async () => {
    const url = await hostile({ kind: 'silent' });
    const answer = watch(boundedFetch(60_000)(url, { method: 'POST', body: '{}' }));
    await reached('headers');
    await expireAfter(60_000, answer);
    await assert.rejects(answer.promise, (error: unknown) => {
      assert.ok(error instanceof DeadlineExceeded, String(error));
      assert.equal(error.phase, 'headers');
      assert.equal(error.message, "the service did not send the answer's headers within 60 s");
      return true;
    });
  });

  it('headers and then a trickle: the same deadline ends the body, naming it', async () => {
    const url = await hostile({ kind: 'trickle', status: 200 });
    const response = await boundedFetch(60_000)(url);
    assert.equal(response.status, 200);
    const body = watch(response.text());
    await reached('body');
    await expireAfter(60_000, body);
    await assert.rejects(body.promise, (error: unknown) => {
      assert.ok(error instanceof DeadlineExceeded, String(error));
      assert.equal(error.message, "the service sent the answer's headers but not its body within 60 s");
      return true;
    });
  });

  for (const [status, limit] of [
    [200, 1024 * 1024],
    [500, 64 * 1024],
  ] as const) {
    it(`an endless ${status} answer is cut at ${limit / 1024} KiB`, async () => {
      const url = await hostile({ kind: 'flood', status, chunked: true });
      const response = await boundedFetch(60_000)(url);
      await assert.rejects(response.text(), (error: unknown) => {
        assert.ok(error instanceof BodyTooLarge, String(error));
        assert.equal(error.maxBytes, limit);
        return true;
      });
      assert.deepEqual(runningPhases(), [], 'the deadline is over with the cut');
    });
  }

  it('a whole answer, or a request its caller aborted, leaves no deadline running', async () => {
    const response = await boundedFetch(60_000)(plainUrl);
    assert.deepEqual(await response.json(), { ok: true });
    assert.deepEqual(runningPhases(), []);
    assert.equal(clock.pending(), 0, 'no timer left to hold the process');

    const url = await hostile({ kind: 'trickle', status: 200 });
    const caller = new AbortController();
    const open = await boundedFetch(60_000)(url, { signal: caller.signal });
    assert.equal(open.status, 200);
    await reached('body');
    caller.abort();
    assert.deepEqual(runningPhases(), []);
    assert.equal(clock.pending(), 0);
  });
});
