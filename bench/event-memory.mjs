// Peak memory of `svcctl event send --ndjson -` on a stream of signed events
// piped in by a generator process (never held whole anywhere): 1,000,000
// events, and 1,000 for comparison, in alternated rounds (each printed; medians).
// Goals: peak RSS ≤ 80 MB for 1,000,000 events, and flat: within 10 MB of the
// 1,000-event run. Needs GNU time (/usr/bin/time) for the peak RSS.
// Exits 1 when a goal is missed.
//   node bench/event-memory.mjs [--events 1000000] [--small 1000] [--concurrency 16] [--rounds 1]
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { alternatedRounds, benchEnv, bin, machineNote, median, startReceiver, verdict } from './lib.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const EVENTS = arg('events', 1_000_000);
const SMALL = arg('small', 1_000);
const CONCURRENCY = arg('concurrency', 16);
const ROUNDS = arg('rounds', 1);
const GOAL_MB = 80;
const FLAT_MB = 10;
if (!existsSync('/usr/bin/time'))
  throw new Error('this benchmark needs GNU time at /usr/bin/time (apt-get install time)');

const generator = (count) => `
  const { randomUUID } = require('node:crypto');
  let i = 0;
  const total = ${count};
  function more() {
    let chunk = '';
    while (i < total && chunk.length < 65536) {
      chunk += JSON.stringify({ event: { id: randomUUID(), title: 'memory bench ' + i, created_at: '2026-11-22T02:31:00.000Z', investigate: false, payload: '{"source":"bench"}' } }) + '\\n';
      i++;
    }
    if (chunk && process.stdout.write(chunk)) setImmediate(more);
    else if (chunk) process.stdout.once('drain', more);
  }
  more();`;

/** Streams `count` events into one svcctl; returns its peak RSS (MB) and the rate. */
async function measure(count, env) {
  const started = performance.now();
  const source = spawn(process.execPath, ['-e', generator(count)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const svcctl = spawn(
    '/usr/bin/time',
    [
      '-f',
      '%M',
      process.execPath,
      bin,
      'event',
      'send',
      '--ndjson',
      '-',
      '--concurrency',
      String(CONCURRENCY),
      '--quiet',
    ],
    {
      env,
      stdio: ['pipe', 'ignore', 'pipe'],
    },
  );
  source.stdout.pipe(svcctl.stdin);
  let stderr = '';
  svcctl.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise((resolve) => svcctl.once('exit', resolve));
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`svcctl exited with ${code}: ${stderr}`);
  return { mb: Number(stderr.trim().split('\n').pop()) / 1024, rate: count / seconds };
}

const receiver = await startReceiver();
try {
  const env = benchEnv(receiver.baseUrl);
  console.log(
    `${EVENTS} and ${SMALL} events streamed through stdin, concurrency ${CONCURRENCY}, ${ROUNDS} round(s), ${await machineNote()}`,
  );
  const rates = [];
  const sizes = { large: EVENTS, small: SMALL };
  const samples = await alternatedRounds(
    Object.keys(sizes),
    ROUNDS,
    0,
    async (name) => {
      const { mb, rate } = await measure(sizes[name], env);
      if (name === 'large') rates.push(rate);
      return mb;
    },
    (values) =>
      `${EVENTS} events: peak RSS ${values.large.toFixed(1)} MB (${Math.round(rates.at(-1))} events/s); ${SMALL} events: ${values.small.toFixed(1)} MB`,
  );
  const large = median(samples.large);
  const small = median(samples.small);
  console.log(
    `peak RSS, ${EVENTS} events: ${large.toFixed(1)} MB (goal ≤ ${GOAL_MB} MB: ${verdict(large <= GOAL_MB)})`,
  );
  console.log(
    `peak RSS, ${SMALL} events: ${small.toFixed(1)} MB; growth ${(large - small).toFixed(1)} MB (goal ≤ ${FLAT_MB} MB: ${verdict(large - small <= FLAT_MB)})`,
  );
} finally {
  await receiver.stop();
}
