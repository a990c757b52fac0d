// Throughput of `svcctl event send --ndjson` (50,000 signed events, 16 in
// flight) against a keep-alive receiver on loopback, compared in the same run
// with (a) a bare undici Pool loop posting pre-built signed bodies (the
// practical limit; goal ≥ 70% of it) and (b) a bash loop of openssl dgst +
// curl, one event at a time (goal ≥ 100× it; measured on fewer events).
// svcctl's throughput is the rate its own summary line reports (from the first
// line read to the last answer), as the Pool loop's excludes its start-up; the
// whole command's wall time (start-up included) is printed too. Three rounds,
// alternating, medians.
//   node bench/event-throughput.mjs [--events 50000] [--concurrency 16] [--bash-events 300] [--rounds 3]
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { benchEnv, bin, eventLine, median, root, SECRET, startReceiver, TOKEN } from './lib.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const EVENTS = arg('events', 50_000);
const CONCURRENCY = arg('concurrency', 16);
const BASH_EVENTS = arg('bash-events', 300);
const ROUNDS = arg('rounds', 3);

const dir = mkdtempSync(join(tmpdir(), 'svcctl-bench-'));
const file = join(dir, 'events.ndjson');
writeFileSync(file, `${Array.from({ length: EVENTS }, (_, i) => eventLine(i)).join('\n')}\n`);
const bashFile = join(dir, 'bash-events.ndjson');
writeFileSync(bashFile, `${Array.from({ length: BASH_EVENTS }, (_, i) => eventLine(i)).join('\n')}\n`);

const receiver = await startReceiver();
const run = promisify(execFile);
try {
  const poolRates = [];
  const svcctlRates = [];
  const wholeRates = [];
  for (let round = 0; round < ROUNDS; round++) {
    const baseline = await run(process.execPath, [join(root, 'bench', 'pool-baseline.mjs'), receiver.origin, file, String(CONCURRENCY)]);
    const [count, seconds] = baseline.stdout.trim().split(' ').map(Number);
    poolRates.push(count / seconds);

    const started = performance.now();
    const summary = await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [bin, 'event', 'send', '--ndjson', file, '--concurrency', String(CONCURRENCY)], {
        env: benchEnv(receiver.baseUrl),
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.once('exit', (code) => (code === 0 ? resolve(stderr) : reject(new Error(`svcctl exited with ${code}: ${stderr}`))));
    });
    wholeRates.push(EVENTS / ((performance.now() - started) / 1000));
    const reported = /sent (\d+), failed 0 in [\d.]+s \((\d+) events\/s\)/.exec(summary);
    if (!reported || Number(reported[1]) !== EVENTS) throw new Error(`unexpected summary: ${summary}`);
    svcctlRates.push(Number(reported[2]));
  }
  const poolRate = median(poolRates);
  const svcctlRate = median(svcctlRates);
  const wholeRate = median(wholeRates);

  // The shell way: sign with openssl, send with curl, one event at a time.
  const script = `
    while IFS= read -r body; do
      sig=$(printf '%s' "$body" | openssl dgst -sha256 -hmac "$SECRET" -r | cut -d' ' -f1)
      printf '%s' "$body" | curl -sS --fail -o /dev/null -X POST "$URL" \\
        -H 'Content-Type: application/json' -H "Authorization: Bearer $TOKEN" \\
        -H "X-Hub-Signature-256: sha256=$sig" --data-binary @-
    done < "$FILE"`;
  const bashStarted = performance.now();
  await run('bash', ['-c', script], { env: { ...process.env, SECRET, TOKEN, FILE: bashFile, URL: `${receiver.baseUrl}/v1/event` } });
  const bashRate = BASH_EVENTS / ((performance.now() - bashStarted) / 1000);

  console.log(`events: ${EVENTS}, concurrency ${CONCURRENCY}, ${ROUNDS} rounds (medians), node ${process.version}`);
  console.log(`bare undici Pool loop        ${Math.round(poolRate).toString().padStart(7)} events/s (rounds: ${poolRates.map(Math.round).join(', ')})`);
  console.log(`svcctl event send --ndjson   ${Math.round(svcctlRate).toString().padStart(7)} events/s (rounds: ${svcctlRates.join(', ')})`);
  console.log(`  whole command              ${Math.round(wholeRate).toString().padStart(7)} events/s (start-up and file reading included)`);
  console.log(`bash openssl + curl loop     ${Math.round(bashRate).toString().padStart(7)} events/s (${BASH_EVENTS} events)`);
  const share = svcctlRate / poolRate;
  const factor = svcctlRate / bashRate;
  console.log(`svcctl / Pool = ${(share * 100).toFixed(0)}% (goal ≥ 70%: ${share >= 0.7 ? 'met' : 'MISSED'})`);
  console.log(`svcctl / bash = ${factor.toFixed(0)}× (goal ≥ 100×: ${factor >= 100 ? 'met' : 'MISSED'})`);
} finally {
  await receiver.stop();
  rmSync(dir, { recursive: true, force: true });
}
