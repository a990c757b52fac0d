// The shared clock of attempt deadlines (src/http/attempt-deadline.ts): each deadline expires on its own
// time with the phase it reached, a cleared one never does, and no timer is left once none runs.
// Time is a manual clock the tests move; no test waits for real time.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { DeadlineExceeded, startDeadline, useDeadlineClock } from '../src/http/attempt-deadline.js';
import { type ManualClock, manualClock } from './helpers/manual-clock.js';

let clock: ManualClock;
let restore: () => void;
beforeEach(() => {
  clock = manualClock();
  restore = useDeadlineClock(clock);
});
afterEach(() => restore());

test('deadlines of different lengths expire in their own order, each naming the part it reached', () => {
  const expired: { name: string; at: number; error: DeadlineExceeded }[] = [];
  const long = startDeadline(120, (error) => expired.push({ name: 'long', at: clock.now(), error }));
  const short = startDeadline(40, (error) => expired.push({ name: 'short', at: clock.now(), error }));
  short.reached('body');
  clock.advance(39);
  assert.equal(expired.length, 0, 'nothing before 40 ms');
  clock.advance(200);
  assert.deepEqual(
    expired.map(({ name, at }) => [name, at]),
    [
      ['short', 40],
      ['long', 120],
    ],
  );
  assert.match(expired[0]!.error.message, /^the service sent the answer's headers but not its body within 0\.04 s$/);
  assert.match(expired[1]!.error.message, /^could not connect within 0\.12 s$/);
  assert.equal(short.error, expired[0]!.error);
  assert.equal(long.error?.code, 'ETIMEDOUT');
  assert.equal(clock.pending(), 0, 'no timer is left once every deadline has expired');
});

test('a cleared deadline never expires, and clearing the last one removes the timer', () => {
  let calls = 0;
  const first = startDeadline(30, () => calls++);
  const second = startDeadline(60, () => calls++);
  assert.equal(clock.pending(), 1, 'one timer serves both deadlines');
  first.clear();
  assert.equal(clock.pending(), 1, 'the other deadline still runs');
  second.clear();
  assert.equal(clock.pending(), 0, 'no timer once none runs');
  clock.advance(90);
  assert.equal(calls, 0);
  assert.equal(first.error, undefined);
});

test('a deadline ending in time leaves the others on their time (the timer set for it only moves later)', () => {
  let at = 0;
  const early = startDeadline(20, () => assert.fail('cleared in time'));
  startDeadline(70, () => (at = clock.now()));
  early.clear();
  clock.advance(120);
  assert.equal(at, 70);
});

test('deadlines cleared out of order (first, middle, last) leave the others running', () => {
  const expired: string[] = [];
  const started = ['a', 'b', 'c', 'd', 'e'].map((name, i) => ({
    name,
    deadline: startDeadline(20 + i * 5, () => expired.push(name)),
  }));
  for (const index of [0, 2, 4]) started[index]!.deadline.clear(); // a, c, e
  started[2]!.deadline.clear(); // twice: no effect
  const kept = startDeadline(30, () => expired.push('f'));
  started[1]!.deadline.reached('headers');
  clock.advance(120);
  assert.deepEqual(expired, ['b', 'f', 'd'], 'b at 25 ms, f at 30 ms, d at 35 ms');
  assert.equal(started[1]!.deadline.error?.phase, 'headers');
  assert.equal(started[0]!.deadline.error, undefined);
  assert.ok(kept.error instanceof DeadlineExceeded);
  assert.equal(clock.pending(), 0, 'no timer is left');
});

test('a deadline started from within an expiring one gets its own time', () => {
  const expired: string[] = [];
  startDeadline(20, () => {
    expired.push('first');
    startDeadline(30, () => expired.push('second'));
  });
  startDeadline(25, () => expired.push('other'));
  clock.advance(40);
  assert.deepEqual(expired, ['first', 'other']);
  clock.advance(9);
  assert.deepEqual(expired, ['first', 'other'], 'the second is due at 50 ms');
  clock.advance(1);
  assert.deepEqual(expired, ['first', 'other', 'second']);
  assert.equal(clock.pending(), 0);
});
