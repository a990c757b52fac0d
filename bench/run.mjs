// Runs every benchmark in turn and prints their results (record them in BENCHMARKS.md).
//   npm run bench            (about 3 minutes)
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { root } from './lib.mjs';

const benches = ['event-startup.mjs', 'event-throughput.mjs', 'event-memory.mjs', 'sandbox-events.mjs'];
for (const bench of benches) {
  console.log(`\n== node bench/${bench}`);
  execFileSync(process.execPath, [join(root, 'bench', bench)], { stdio: 'inherit' });
}
