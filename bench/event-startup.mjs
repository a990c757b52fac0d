// Start-up cost of svcctl: `svcctl --version`, `event send --dry-run` and one signed `event send`
// against a keep-alive receiver on loopback, each compared with `node -e 0`
// measured in the same rounds (the order alternates from round to round).
// Each round is printed, then the medians. Goals (medians of the per-round ratios): --version ≤ 1.1× node -e 0,
// one signed event send ≤ 1.3× the floor below. Exits 1 when a goal is missed.
// Beside them, the floor: a few lines of Node that do what one signed send cannot skip (load node:http
// and node:crypto, sign, POST, print the answer), with no validation, no options and no messages.
// The ratio depends on what `node -e 0` costs: a NODE_EXTRA_CA_CERTS bundle (set on this project's machines)
// costs Node 20 ~35 ms at every start, so the cases run without it (bench/lib.mjs).
//   node bench/event-startup.mjs [--rounds 20] [--warmup 2]
import { alternatedRounds, benchEnv, bin, machineNote, median, startReceiver, timeCommand, verdict } from './lib.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const ROUNDS = arg('rounds', 20);
const WARMUP = arg('warmup', 2);

const FLOOR = `
  const { createHmac, randomUUID } = require('node:crypto');
  const body = JSON.stringify({ event: { id: randomUUID(), title: 'startup bench', created_at: new Date().toISOString() } });
  const request = require('node:http').request(process.env.SERVICE_BASE_URL + '/v1/event', { method: 'POST', headers: {
    'content-type': 'application/json', authorization: 'Bearer ' + process.env.SERVICE_INGEST_TOKEN,
    'x-hub-signature-256': 'sha256=' + createHmac('sha256', process.env.SERVICE_HMAC_SECRET).update(body).digest('hex') } },
    (response) => { response.resume(); response.on('end', () => process.stdout.write(response.statusCode + '\\n')); });
  request.end(body);`;

const receiver = await startReceiver();
const env = benchEnv(receiver.baseUrl);
const cases = {
  'node -e 0': [process.execPath, ['-e', '0']],
  'svcctl --version': [process.execPath, [bin, '--version']],
  'svcctl event send --dry-run': [process.execPath, [bin, 'event', 'send', '--title', 'startup bench', '--dry-run']],
  'svcctl event send (signed)': [
    process.execPath,
    [bin, 'event', 'send', '--title', 'startup bench', '--severity', 'info'],
  ],
  'floor (sign + POST)': [process.execPath, ['-e', FLOOR]],
};
const goals = {
  'svcctl --version': 1.1,
  'svcctl event send --dry-run': undefined,
  // Its goal is against the floor (below): what Node itself needs to sign and post.
  'svcctl event send (signed)': undefined,
  'floor (sign + POST)': undefined,
};
const ratios = Object.fromEntries(Object.keys(goals).map((name) => [name, []]));
console.log(`${ROUNDS} rounds + ${WARMUP} warm-up, ${await machineNote()}`);
let samples;
try {
  samples = await alternatedRounds(
    Object.keys(cases),
    ROUNDS,
    WARMUP,
    (name) => timeCommand(cases[name][0], cases[name][1], { env }),
    (values) => {
      const base = values['node -e 0'];
      for (const name of Object.keys(goals)) ratios[name].push(values[name] / base);
      return Object.entries(values)
        .map(([name, ms]) => `${name} ${ms.toFixed(0)} ms`)
        .join(', ');
    },
  );
} finally {
  await receiver.stop();
}
console.log('medians:');
for (const [name, values] of Object.entries(samples)) {
  const goal = goals[name];
  let line = `${name.padEnd(28)} ${median(values).toFixed(1).padStart(7)} ms`;
  if (name in goals) {
    const kept = ratios[name].slice(WARMUP);
    const ratio = median(kept);
    const extra = median(values) - median(samples['node -e 0']);
    line += ` (${extra >= 0 ? '+' : '−'}${Math.abs(extra).toFixed(1)} ms)`;
    line += `  ${ratio.toFixed(2)}× node -e 0 (rounds ${Math.min(...kept).toFixed(2)}–${Math.max(...kept).toFixed(2)}${goal ? `; goal ≤ ${goal}×: ${verdict(ratio <= goal)}` : ''})`;
  }
  console.log(line);
}
const perRound = samples['svcctl event send (signed)']
  .map((ms, round) => ms / samples['floor (sign + POST)'][round])
  .sort((a, b) => a - b);
const sendOverFloor = median(perRound);
const quartile = (q) => perRound[Math.min(perRound.length - 1, Math.floor(q * perRound.length))];
const goalMet = sendOverFloor <= 1.3;
console.log(
  `signed event send ÷ floor: ${sendOverFloor.toFixed(2)}× (rounds ${perRound[0].toFixed(2)}–${perRound.at(-1).toFixed(2)}, ` +
    `quartiles ${quartile(0.25).toFixed(2)}–${quartile(0.75).toFixed(2)}; goal ≤ 1.3×: ${verdict(goalMet)})`,
);
