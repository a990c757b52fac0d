// Start-up cost of svcctl: `svcctl --version` and one signed `event send`
// against a keep-alive receiver on loopback, each compared with `node -e 0`
// measured in the same run. Goals: --version ≤ 1.3×, event send ≤ 2×.
//   node bench/event-startup.mjs [--runs 20]
import { benchEnv, bin, median, startReceiver, timeCommand } from './lib.mjs';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg === -1 ? 20 : Number(process.argv[runsArg + 1]);

const receiver = await startReceiver();
const env = benchEnv(receiver.baseUrl);
const cases = {
  'node -e 0': [process.execPath, ['-e', '0']],
  'svcctl --version': [process.execPath, [bin, '--version']],
  'svcctl event send (signed)': [process.execPath, [bin, 'event', 'send', '--title', 'startup bench', '--severity', 'info']],
};
const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
for (let run = 0; run < RUNS + 2; run++) {
  // Interleaved, so that a busy moment of the machine hits every case alike; two warm-up rounds.
  for (const [name, [command, args]] of Object.entries(cases)) {
    const ms = await timeCommand(command, args, { env });
    if (run >= 2) samples[name].push(ms);
  }
}
await receiver.stop();

const base = median(samples['node -e 0']);
const goals = { 'svcctl --version': 1.3, 'svcctl event send (signed)': 2 };
console.log(`runs: ${RUNS} each, medians, node ${process.version}`);
for (const [name, values] of Object.entries(samples)) {
  const ms = median(values);
  const ratio = ms / base;
  const goal = goals[name];
  const verdict = goal ? ` (goal ≤ ${goal}×: ${ratio <= goal ? 'met' : 'MISSED'})` : '';
  console.log(`${name.padEnd(28)} ${ms.toFixed(1).padStart(7)} ms  ${ratio.toFixed(2)}× node -e 0${verdict}`);
}
