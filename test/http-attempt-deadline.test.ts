// The shared clock of attempt deadlines (src/http/attempt-deadline.ts): each deadline expires on its own
// time with the phase it reached, a cleared one never does, and no timer is left once none runs.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { DeadlineExceeded, startDeadline } from '../src/http/attempt-deadline.js';

const timers = (): number => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;

test('deadlines of different lengths expire in their own order, each naming the part it reached', async () => {
  const started = performance.now();
  const expired: { name: string; at: number; error: DeadlineExceeded }[] = [];
  const long = startDeadline(120, (error) => expired.push({ name: 'long', at: performance.now() - started, error }));
  const short = startDeadline(40, (error) => expired.push({ name: 'short', at: performance.now() - started, error }));
  short.reached('body');
  await sleep(200);
  assert.deepEqual(
    expired.map((entry) => entry.name),
    ['short', 'long'],
  );
  assert.ok(expired[0]!.at >= 39 && expired[0]!.at < 110, `short expired at ${expired[0]!.at} ms`);
  assert.ok(expired[1]!.at >= 119, `long expired at ${expired[1]!.at} ms`);
  assert.match(expired[0]!.error.message, /^the service sent the answer's headers but not its body within 0\.04 s$/);
  assert.match(expired[1]!.error.message, /^could not connect within 0\.12 s$/);
  assert.equal(short.error, expired[0]!.error);
  assert.equal(long.error?.code, 'ETIMEDOUT');
  assert.equal(timers(), 0, 'no timer is left once every deadline has expired');
});

test('a cleared deadline never expires, and clearing the last one removes the timer', async () => {
  const before = timers();
  let calls = 0;
  const first = startDeadline(30, () => calls++);
  const second = startDeadline(60, () => calls++);
  assert.equal(timers(), before + 1, 'one timer serves both deadlines');
  first.clear();
  assert.equal(timers(), before + 1, 'the other deadline still runs');
  second.clear();
  assert.equal(timers(), before, 'no timer once none runs');
  await sleep(90);
  assert.equal(calls, 0);
  assert.equal(first.error, undefined);
});

test('a deadline ending in time leaves the others on their time (the timer set for it only moves later)', async () => {
  const started = performance.now();
  let at = 0;
  const early = startDeadline(20, () => assert.fail('cleared in time'));
  startDeadline(70, () => (at = performance.now() - started));
  early.clear();
  await sleep(120);
  assert.ok(at >= 69 && at < 115, `expired at ${at} ms`);
});

test('deadlines cleared out of order (first, middle, last) leave the others running', async () => {
  const expired: string[] = [];
  const started = ['a', 'b', 'c', 'd', 'e'].map((name, i) => ({
    name,
    deadline: startDeadline(20 + i * 5, () => expired.push(name)),
  }));
  for (const index of [0, 2, 4]) started[index]!.deadline.clear(); // a, c, e
  started[2]!.deadline.clear(); // twice: no effect
  const kept = startDeadline(30, () => expired.push('f'));
  started[1]!.deadline.reached('headers');
  await sleep(120);
  assert.deepEqual(expired.sort(), ['b', 'd', 'f']);
  assert.equal(started[1]!.deadline.error?.phase, 'headers');
  assert.equal(started[0]!.deadline.error, undefined);
  assert.ok(kept.error instanceof DeadlineExceeded);
  assert.equal(timers(), 0, 'no timer is left');
});

test('a deadline started from within an expiring one gets its own time', async () => {
  const expired: string[] = [];
  startDeadline(20, () => {
    expired.push('first');
    startDeadline(30, () => expired.push('second'));
  });
  startDeadline(25, () => expired.push('other'));
  await sleep(40);
  assert.deepEqual(expired, ['first', 'other']);
  await sleep(40);
  assert.deepEqual(expired, ['first', 'other', 'second']);
  assert.equal(timers(), 0);
});
