// Throughput of `svcctl event send --ndjson FILE --concurrency 16` (50,000
// signed events) against the fair limit (bench/fair-limit.mjs: read the file,
// split lines, HMAC-SHA256 each line, POST through an undici Pool with 16 in
// flight), both timed as whole commands (start-up, reading and signing
// included) from spawn to exit, against the same keep-alive receiver on
// loopback. Rounds alternate the order (limit, svcctl / svcctl, limit); each
// round is printed, then the medians. Goal: svcctl ≥ 90% of the limit (median
// of the per-round ratios). Also a bash loop of openssl dgst + curl, one event
// at a time, on fewer events (goal: svcctl ≥ 100× it; --bash-events 0 skips it).
// Exits 1 when a goal is missed.
//   node bench/event-throughput.mjs [--events 50000] [--concurrency 16] [--rounds 5] [--warmup 1] [--bash-events 300]
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  alternatedRounds,
  benchEnv,
  bin,
  eventLine,
  inheritedEnv,
  machineNote,
  median,
  root,
  runCommand,
  SECRET,
  startReceiver,
  TOKEN,
  verdict,
} from './lib.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const EVENTS = arg('events', 50_000);
const CONCURRENCY = arg('concurrency', 16);
const ROUNDS = arg('rounds', 5);
const WARMUP = arg('warmup', 1);
const BASH_EVENTS = arg('bash-events', 300);
const GOAL = 0.9;

const dir = mkdtempSync(join(tmpdir(), 'svcctl-bench-'));
const file = join(dir, 'events.ndjson');
writeFileSync(file, `${Array.from({ length: EVENTS }, (_, i) => eventLine(i)).join('\n')}\n`);

const receiver = await startReceiver();
const env = benchEnv(receiver.baseUrl);
const rate = (ms) => EVENTS / (ms / 1000);
const fmt = (value) => Math.round(value).toLocaleString('en-US');
try {
  console.log(
    `events: ${EVENTS}, concurrency ${CONCURRENCY}, ${ROUNDS} rounds + ${WARMUP} warm-up, ${await machineNote()}`,
  );
  const inner = { limit: [], svcctl: [] };
  const ratios = [];
  const cases = {
    limit: async () => {
      const { ms, stdout } = await runCommand(process.execPath, [
        join(root, 'bench', 'fair-limit.mjs'),
        receiver.origin,
        file,
        String(CONCURRENCY),
      ]);
      const [count, seconds] = stdout.trim().split(' ').map(Number);
      if (count !== EVENTS) throw new Error(`the limit loop sent ${count} events`);
      inner.limit.push(count / seconds);
      return rate(ms);
    },
    svcctl: async () => {
      const { ms, stderr } = await runCommand(
        process.execPath,
        [bin, 'event', 'send', '--ndjson', file, '--concurrency', String(CONCURRENCY)],
        {
          env,
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      const reported = /sent (\d+), failed 0 in [\d.]+s \((\d+) events\/s\)/.exec(stderr);
      if (!reported || Number(reported[1]) !== EVENTS) throw new Error(`unexpected summary: ${stderr}`);
      inner.svcctl.push(Number(reported[2]));
      return rate(ms);
    },
  };
  const samples = await alternatedRounds(
    Object.keys(cases),
    ROUNDS,
    WARMUP,
    (name) => cases[name](),
    (values) => {
      const ratio = values.svcctl / values.limit;
      ratios.push(ratio);
      return `limit ${fmt(values.limit)}/s, svcctl ${fmt(values.svcctl)}/s, svcctl/limit ${(ratio * 100).toFixed(0)}%`;
    },
  );
  const kept = ratios.slice(WARMUP);
  const share = median(kept);
  console.log(
    `fair limit (whole run)         ${fmt(median(samples.limit)).padStart(7)} events/s median (its own clock, after start-up: ${fmt(median(inner.limit.slice(WARMUP)))}/s)`,
  );
  console.log(
    `svcctl --ndjson (whole command) ${fmt(median(samples.svcctl)).padStart(7)} events/s median (its own summary: ${fmt(median(inner.svcctl.slice(WARMUP)))}/s)`,
  );
  console.log(
    `svcctl / fair limit = ${(share * 100).toFixed(0)}% median of rounds (spread ${(Math.min(...kept) * 100).toFixed(0)}–${(Math.max(...kept) * 100).toFixed(0)}%) (goal ≥ ${GOAL * 100}%: ${verdict(share >= GOAL)})`,
  );

  if (BASH_EVENTS > 0) {
    // The shell way: sign with openssl, send with curl, one event at a time.
    const bashFile = join(dir, 'bash-events.ndjson');
    writeFileSync(bashFile, `${Array.from({ length: BASH_EVENTS }, (_, i) => eventLine(i)).join('\n')}\n`);
    const script = `
      while IFS= read -r body; do
        sig=$(printf '%s' "$body" | openssl dgst -sha256 -hmac "$SECRET" -r | cut -d' ' -f1)
        printf '%s' "$body" | curl -sS --fail -o /dev/null -X POST "$URL" \\
          -H 'Content-Type: application/json' -H "Authorization: Bearer $TOKEN" \\
          -H "X-Hub-Signature-256: sha256=$sig" --data-binary @-
      done < "$FILE"`;
    const bashStarted = performance.now();
    await promisify(execFile)('bash', ['-c', script], {
      env: { ...inheritedEnv, SECRET, TOKEN, FILE: bashFile, URL: `${receiver.baseUrl}/v1/event` },
    });
    const bashRate = BASH_EVENTS / ((performance.now() - bashStarted) / 1000);
    const factor = median(samples.svcctl) / bashRate;
    console.log(
      `bash openssl + curl loop        ${fmt(bashRate).padStart(7)} events/s (${BASH_EVENTS} events); svcctl / bash = ${factor.toFixed(0)}× (goal ≥ 100×: ${verdict(factor >= 100)})`,
    );
  }
} finally {
  await receiver.stop();
  rmSync(dir, { recursive: true, force: true });
}
