// Runs every benchmark in turn on one Node and prints their results (record them in BENCHMARKS.md).
//   npm run bench                       on the Node that runs npm (about 3 minutes)
//   npm run bench -- --node 24          on Node 24, fetched from the npm registry by `npx -y node@24` the first time
// Every process of a benchmark (svcctl, `node -e 0`, the fair limit, the receiver) runs on that Node.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { root } from './lib.mjs';

const benches = ['event-startup.mjs', 'event-throughput.mjs', 'event-memory.mjs', 'sandbox-events.mjs'];

/** The path of the Node binary to run on: this one, or `npx -y node@<version>`'s. */
function nodeFor(version) {
  if (version === undefined) return process.execPath;
  if (!/^\d+(\.\d+){0,2}$/.test(version)) {
    console.error(`--node wants a version such as 24 or 22.12.0, not ${JSON.stringify(version)}`);
    process.exit(2);
  }
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  return execFileSync(npx, ['-y', `node@${version}`, '-p', 'process.execPath'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

const at = process.argv.indexOf('--node');
const node = nodeFor(at === -1 ? undefined : process.argv[at + 1]);
const only = process.argv.slice(2).filter((word, i, words) => word.endsWith('.mjs') && words[i - 1] !== '--node');
console.log(`node ${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()} (${node})`);
const missed = [];
for (const bench of only.length > 0 ? only : benches) {
  console.log(`\n== node bench/${bench}`);
  // A missed goal exits 1: note it and go on with the others.
  try {
    execFileSync(node, [join(root, 'bench', bench)], { stdio: 'inherit' });
  } catch {
    missed.push(bench);
  }
}
if (missed.length > 0) {
  console.log(`\ngoal missed or failure in: ${missed.join(', ')}`);
  process.exitCode = 1;
}
