// How many event requests per second `svcctl dev` sustains on loopback.
// Starts the built CLI (`npm run build` first) with a signed webhook, pre-builds
// signed bodies, and sends them through an undici Pool with 16 requests in
// flight, bounded by count and by time. The sandbox's request log (stderr) is
// read through a pipe, as a terminal would, and counted as a cross-check.
//   node bench/sandbox-events.mjs [--count 50000] [--seconds 10] [--concurrency 16] [--events-file]
import { spawn } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { inheritedEnv } from './lib.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const COUNT = arg('count', 50_000);
const SECONDS = arg('seconds', 10);
const CONCURRENCY = arg('concurrency', 16);
const WARMUP = 1000;
const withFile = process.argv.includes('--events-file');
const SECRET = 'bench-secret';

const dir = mkdtempSync(join(tmpdir(), 'svcctl-bench-'));
const args = [join(root, 'bin/svcctl.js'), 'dev', '--webhook', `bench:${SECRET}`];
// Without --events-file the sandbox would keep its events in the state folder of the HOME the bench runs in.
args.push('--port', '0', ...(withFile ? ['--events-file', join(dir, 'events.ndjson')] : ['--no-events-file']));
const child = spawn(process.execPath, args, {
  stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...inheritedEnv, NO_COLOR: '1' },
});
let logLines = 0;
child.stderr.on('data', (chunk) => {
  for (const byte of chunk) if (byte === 10) logLines++;
});
const ready = await new Promise((resolve, reject) => {
  let text = '';
  child.stdout.on('data', (chunk) => {
    text += chunk;
    if (text.includes('\n')) resolve(JSON.parse(text.slice(0, text.indexOf('\n'))));
  });
  child.once('exit', (code) => reject(new Error(`svcctl dev exited with ${code}`)));
});
const { origin } = new URL(ready.base_url);
const token = ready.webhooks[0].ingest_token;

function signedRequest() {
  const body = Buffer.from(
    JSON.stringify({
      event: {
        id: randomUUID(),
        title: 'bench',
        created_at: new Date().toISOString(),
        investigate: false,
        payload: '{"source":"bench","severity":"info"}',
      },
    }),
  );
  return {
    body,
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
    },
  };
}
const bodies = Array.from({ length: WARMUP + COUNT }, signedRequest);
const pool = new Pool(origin, { connections: CONCURRENCY, keepAliveTimeout: 10_000 });

async function run(from, to, deadline) {
  let next = from;
  const latencies = [];
  const statuses = new Map();
  async function worker() {
    while (next < to && performance.now() < deadline) {
      const { body, headers } = bodies[next++];
      const started = performance.now();
      const response = await pool.request({ path: '/api/v1/event', method: 'POST', headers, body });
      await response.body.dump();
      latencies.push(performance.now() - started);
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
    }
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { elapsed: (performance.now() - started) / 1000, latencies: latencies.sort((a, b) => a - b), statuses };
}

await run(0, WARMUP, performance.now() + 30_000);
const logBefore = logLines;
const { elapsed, latencies, statuses } = await run(WARMUP, WARMUP + COUNT, performance.now() + SECONDS * 1000);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))].toFixed(2);
await pool.close();
child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));
const accepted = statuses.get(202) ?? 0;
const fileNote = withFile ? `, events file ${(statSync(join(dir, 'events.ndjson')).size / 1e6).toFixed(1)} MB` : '';
rmSync(dir, { recursive: true, force: true });
console.log(
  `sandbox-events: ${latencies.length} requests in ${elapsed.toFixed(2)}s = ${Math.round(latencies.length / elapsed)} req/s ` +
    `(concurrency ${CONCURRENCY}, signed, ${withFile ? 'with' : 'no'} --events-file; p50 ${pct(50)} ms, p99 ${pct(99)} ms; ` +
    `statuses ${JSON.stringify(Object.fromEntries(statuses))}; stderr lines during the run ${logLines - logBefore} (request log + stop lines)${fileNote}; node ${process.version}, ${accepted === latencies.length ? 'all accepted' : 'NOT ALL ACCEPTED'})`,
);
if (accepted !== latencies.length) process.exitCode = 1;
