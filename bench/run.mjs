// Runs every benchmark in turn and prints their results (record them in BENCHMARKS.md).
//   npm run bench            (about 3 minutes)
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { root } from './lib.mjs';

const benches = ['event-startup.mjs', 'event-throughput.mjs', 'event-memory.mjs', 'sandbox-events.mjs'];
const missed = [];
for (const bench of benches) {
  console.log(`\n== node bench/${bench}`);
  // A missed goal exits 1: note it and go on with the others.
  try {
    execFileSync(process.execPath, [join(root, 'bench', bench)], { stdio: 'inherit' });
  } catch {
    missed.push(bench);
  }
}
if (missed.length > 0) {
  console.log(`\ngoal missed or failure in: ${missed.join(', ')}`);
  process.exitCode = 1;
}
