// The fair limit: a straightforward Node program doing the work svcctl cannot
// skip, all of it inside its clock. It reads the NDJSON file, splits it into
// lines, signs each line's bytes with HMAC-SHA256 (createHmac per line) and
// POSTs it through an undici Pool with N requests in flight (request() and
// body.dump(), as undici's README shows). No JSON parsing or validation: svcctl
// does those on top. Its whole run (start-up included) is timed by the caller;
// it also prints its own inner time.
// Prints "<count> <seconds from the first read to the last answer>" on stdout.
//   node bench/fair-limit.mjs <origin> <file> <concurrency>
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { SECRET, TOKEN } from './lib.mjs';

const [origin, file, concurrencyText] = process.argv.slice(2);
const concurrency = Number(concurrencyText);
const started = performance.now();
const lines = readFileSync(file, 'utf8')
  .split('\n')
  .filter((line) => line !== '');
const pool = new Pool(origin, { connections: concurrency, keepAliveTimeout: 10_000 });
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < lines.length) {
      const body = Buffer.from(lines[next++]);
      const headers = {
        'content-type': 'application/json',
        authorization: `Bearer ${TOKEN}`,
        'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
      };
      const response = await pool.request({ path: '/api/v1/event', method: 'POST', headers, body });
      await response.body.dump();
      if (response.statusCode !== 202) throw new Error(`HTTP ${response.statusCode}`);
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
await pool.close();
process.stdout.write(`${lines.length} ${seconds}\n`);
