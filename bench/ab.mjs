// A/B of two (or more) builds of svcctl on this machine, interleaved in the same rounds, so that the
// machine's drift hits every build alike: the way BENCHMARKS.md compares a change with the commit before.
// Build the other commit elsewhere first, e.g.
//   git worktree add /tmp/before <commit> && (cd /tmp/before && npm ci)
//   node bench/ab.mjs startup before=/tmp/before/bin/svcctl.js after=bin/svcctl.js [--rounds 16]
//   node bench/ab.mjs throughput before=/tmp/before/bin/svcctl.js after=bin/svcctl.js [--rounds 4] [--events 50000]
// startup: one signed `event send` per build per round, and `node -e 0`; throughput: `event send --ndjson`
// of the same file, 16 in flight. Prints each round, then the medians.
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alternatedRounds, benchEnv, eventLine, machineNote, median, startReceiver, timeCommand } from './lib.mjs';

const mode = process.argv[2];
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const builds = process.argv
  .slice(3)
  .filter((spec) => spec.includes('='))
  .map((spec) => spec.split('='));
if (!['startup', 'throughput'].includes(mode) || builds.length === 0) {
  console.error('usage: node bench/ab.mjs startup|throughput name=path/to/bin/svcctl.js ... [--rounds N] [--events N]');
  process.exit(2);
}
const EVENTS = arg('events', 50_000);
const file = join(tmpdir(), `svcctl-ab-${process.pid}.ndjson`);
const args =
  mode === 'startup'
    ? ['event', 'send', '--title', 'ab bench', '--severity', 'info']
    : ['event', 'send', '--ndjson', file, '--concurrency', '16', '--quiet'];
if (mode === 'throughput')
  writeFileSync(file, `${Array.from({ length: EVENTS }, (_, i) => eventLine(i)).join('\n')}\n`);
const cases = mode === 'startup' ? { 'node -e 0': [process.execPath, ['-e', '0']] } : {};
for (const [name, bin] of builds) cases[name] = [process.execPath, [bin, ...args]];
const show = (ms) => (mode === 'startup' ? `${ms.toFixed(0)} ms` : `${Math.round((EVENTS / ms) * 1000)}/s`);

console.log(`${mode}, ${await machineNote()}`);
const receiver = await startReceiver();
const env = benchEnv(receiver.baseUrl);
let samples;
try {
  samples = await alternatedRounds(
    Object.keys(cases),
    arg('rounds', mode === 'startup' ? 16 : 4),
    1,
    (name) => timeCommand(cases[name][0], cases[name][1], { env }),
    (values) =>
      Object.entries(values)
        .map(([name, ms]) => `${name} ${show(ms)}`)
        .join(', '),
  );
} finally {
  await receiver.stop();
  rmSync(file, { force: true });
}
console.log('medians:');
for (const [name, values] of Object.entries(samples)) console.log(`${name.padEnd(12)} ${show(median(values))}`);
