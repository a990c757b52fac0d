// The practical limit: a bare undici Pool loop posting pre-built signed bodies
// (read from the same NDJSON file svcctl reads) with N requests in flight.
// Prints "<count> <seconds>" on stdout. Run by bench/event-throughput.mjs.
//   node bench/pool-baseline.mjs <origin> <file> <concurrency>
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { signature, TOKEN } from './lib.mjs';

const [origin, file, concurrencyText] = process.argv.slice(2);
const concurrency = Number(concurrencyText);
const requests = readFileSync(file, 'utf8').trimEnd().split('\n').map((line) => {
  const body = Buffer.from(line);
  return { body, headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}`, 'x-hub-signature-256': signature(body) } };
});
const pool = new Pool(origin, { connections: concurrency, keepAliveTimeout: 10_000 });
let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < requests.length) {
      const { body, headers } = requests[next++];
      const response = await pool.request({ path: '/api/v1/event', method: 'POST', headers, body });
      await response.body.dump();
      if (response.statusCode !== 202) throw new Error(`HTTP ${response.statusCode}`);
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
await pool.close();
process.stdout.write(`${requests.length} ${seconds}\n`);
