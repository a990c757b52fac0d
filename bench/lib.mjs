// Shared pieces of the benchmarks: a minimal keep-alive receiver in its own
// process, timing of whole commands, and signed event bodies.
import { spawn } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const bin = process.env.SVCCTL_BENCH_BIN ?? join(root, 'bin', 'svcctl.js');
export const SECRET = 'bench-hmac-secret';
export const TOKEN = 'bench-ingest-token';

/** Starts bench/receiver.mjs (202 for every POST, kept-alive) and returns its base URL. */
export async function startReceiver() {
  const child = spawn(process.execPath, [join(root, 'bench', 'receiver.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim())));
    child.once('exit', (code) => reject(new Error(`receiver exited with ${code}`)));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}/api`,
    origin: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

/** Wall time of one run of a command, in ms. */
export function timeCommand(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], ...options });
    let stderr = '';
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${stderr}`));
      else resolve(performance.now() - started);
    });
  });
}

/** Whole-command wall time and the stdout/stderr of one run; rejects on a non-zero exit. */
export function runCommand(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => (stdout += chunk));
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${stderr}`));
      else resolve({ ms, stdout, stderr });
    });
  });
}

/**
 * Runs every case once per round, in an order that alternates from round to
 * round (A B C, then C B A, ...), so that a busy moment of the shared machine
 * and any order effect hit every case alike. `measure(name, round)` returns a
 * number; each round is printed as it ends. The first `warmup` rounds are
 * printed and not kept. Returns { name: [values] }.
 */
export async function alternatedRounds(names, rounds, warmup, measure, describe) {
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < warmup + rounds; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    const values = {};
    for (const name of order) values[name] = await measure(name, round);
    const kept = round >= warmup;
    if (kept) for (const name of names) samples[name].push(values[name]);
    console.log(`${kept ? `round ${round - warmup + 1}` : 'warm-up'}: ${describe(values)}`);
  }
  return samples;
}

/** Prints a goal's verdict; a missed goal makes the script exit non-zero. */
export function verdict(met) {
  if (!met) process.exitCode = 1;
  return met ? 'met' : 'MISSED';
}

/** The machine's load average, printed beside every result (the benchmarks share a 2-core machine). */
export async function machineNote() {
  const { cpus, loadavg } = await import('node:os');
  return `node ${process.version}, ${cpus().length} cores, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function eventLine(index) {
  return JSON.stringify({
    event: {
      id: randomUUID(),
      title: `bench event ${index}`,
      created_at: '2026-11-22T02:31:00.000Z',
      investigate: false,
      payload: '{"source":"bench","severity":"info"}',
    },
  });
}

export function signature(body) {
  return `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
}

// A CA bundle in the shell's NODE_EXTRA_CA_CERTS is read by Node 20 at every start (~35 ms of CPU for 220 KB; 22
// and 24 read it at the first TLS connection): the same fixed cost in every case would shrink every ratio here.
// The benchmarks talk plain http to 127.0.0.1 and leave it out.
const { NODE_EXTRA_CA_CERTS: _caBundle, ...shellEnv } = process.env;
export const inheritedEnv = shellEnv;

export const benchEnv = (baseUrl) => ({
  ...inheritedEnv,
  SERVICE_BASE_URL: baseUrl,
  SERVICE_INGEST_TOKEN: TOKEN,
  SERVICE_HMAC_SECRET: SECRET,
  NO_COLOR: '1',
});
