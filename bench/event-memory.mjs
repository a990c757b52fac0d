// Peak memory of `svcctl event send --ndjson -` on a stream of 1,000,000
// signed events piped in by a generator process (never held whole anywhere).
// Goal: peak RSS under 150 MB. Needs GNU time (/usr/bin/time) for the peak RSS.
//   node bench/event-memory.mjs [--events 1000000] [--concurrency 16]
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { benchEnv, bin, startReceiver } from './lib.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const EVENTS = arg('events', 1_000_000);
const CONCURRENCY = arg('concurrency', 16);
if (!existsSync('/usr/bin/time')) throw new Error('this benchmark needs GNU time at /usr/bin/time (apt-get install time)');

const generator = `
  const { randomUUID } = require('node:crypto');
  let i = 0;
  const total = ${EVENTS};
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

const receiver = await startReceiver();
try {
  const started = performance.now();
  const source = spawn(process.execPath, ['-e', generator], { stdio: ['ignore', 'pipe', 'inherit'] });
  const svcctl = spawn('/usr/bin/time', ['-f', '%M', process.execPath, bin, 'event', 'send', '--ndjson', '-', '--concurrency', String(CONCURRENCY), '--quiet'], {
    env: benchEnv(receiver.baseUrl),
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  source.stdout.pipe(svcctl.stdin);
  let stderr = '';
  svcctl.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise((resolve) => svcctl.once('exit', resolve));
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`svcctl exited with ${code}: ${stderr}`);
  const peakMb = Number(stderr.trim().split('\n').pop()) / 1024;
  console.log(`events: ${EVENTS} streamed through stdin, concurrency ${CONCURRENCY}, node ${process.version}`);
  console.log(`elapsed ${seconds.toFixed(1)} s (${Math.round(EVENTS / seconds)} events/s)`);
  console.log(`peak RSS ${peakMb.toFixed(1)} MB (goal < 150 MB: ${peakMb < 150 ? 'met' : 'MISSED'})`);
} finally {
  await receiver.stop();
}
