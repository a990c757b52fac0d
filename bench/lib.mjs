// Shared pieces of the benchmarks: a minimal keep-alive receiver in its own
// process, timing of whole commands, and signed event bodies.
import { spawn } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const bin = join(root, 'bin', 'svcctl.js');
export const SECRET = 'bench-hmac-secret';
export const TOKEN = 'bench-ingest-token';

/** Starts bench/receiver.mjs (202 for every POST, kept-alive) and returns its base URL. */
export async function startReceiver() {
  const child = spawn(process.execPath, [join(root, 'bench', 'receiver.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim())));
    child.once('exit', (code) => reject(new Error(`receiver exited with ${code}`)));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}/api`,
    origin: `http://127.0.0.1:${port}`,
    stop: () => new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGTERM'); }),
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

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function eventLine(index) {
  return JSON.stringify({
    event: { id: randomUUID(), title: `bench event ${index}`, created_at: '2026-11-22T02:31:00.000Z', investigate: false, payload: '{"source":"bench","severity":"info"}' },
  });
}

export function signature(body) {
  return `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
}

export const benchEnv = (baseUrl) => ({
  ...process.env,
  SERVICE_BASE_URL: baseUrl,
  SERVICE_INGEST_TOKEN: TOKEN,
  SERVICE_HMAC_SECRET: SECRET,
  NO_COLOR: '1',
});
