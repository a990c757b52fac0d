// Memory of `svcctl dev` when one user opens MCP sessions and abandons them
// (a client that reconnects in a loop): the sandbox keeps at most 32 per user,
// so its memory must not grow with the number opened. Starts the built CLI
// (`npm run build` first), sends N initialize requests for one user (never
// closing a session), and reads the sandbox's resident memory (Linux /proc)
// after 1,000, N/4, N/2, 3N/4 and N sessions.
//   node bench/sandbox-sessions.mjs [--count 10000]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { bin, inheritedEnv, machineNote } from './lib.mjs';

const i = process.argv.indexOf('--count');
const COUNT = i === -1 ? 10_000 : Number(process.argv[i + 1]);
const USER = { email: 'loop@example.com', password: 'loop-pw' };

const child = spawn(
  process.execPath,
  [bin, 'dev', '--quiet', '--port', '0', '--no-events-file', '--user', `${USER.email}:${USER.password}`],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...inheritedEnv, NO_COLOR: '1' },
  },
);
const ready = await new Promise((resolve, reject) => {
  let text = '';
  child.stdout.on('data', (chunk) => {
    text += chunk;
    if (text.includes('\n')) resolve(JSON.parse(text.slice(0, text.indexOf('\n'))));
  });
  child.once('exit', (code) => reject(new Error(`svcctl dev exited with ${code}`)));
});
const mcp = new URL(ready.mcp_url);
const pool = new Pool(mcp.origin, { connections: 4 });
const body = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
});
const headers = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'x-service-email': USER.email,
  'x-service-password': USER.password,
};

const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024;
async function open(n) {
  for (let k = 0; k < n; k++) {
    const answer = await pool.request({ method: 'POST', path: mcp.pathname, headers, body });
    await answer.body.text();
    if (answer.statusCode !== 200) throw new Error(`initialize answered ${answer.statusCode}`);
  }
}
const samples = [];
let opened = 0;
for (const target of [1000, ...[0.25, 0.5, 0.75, 1].map((part) => Math.round(COUNT * part))].filter(
  (n, k, all) => k === 0 || n > all[k - 1],
)) {
  await open(target - opened);
  opened = target;
  await new Promise((resolve) => setTimeout(resolve, 500));
  samples.push({ sessions: opened, rss_mb: Number(rssMb().toFixed(1)) });
}
await pool.close();
child.kill('SIGTERM');
const growth = (from) => Number((samples.at(-1).rss_mb - from.rss_mb).toFixed(1));
const half = samples.find((sample) => sample.sessions >= COUNT / 2);
console.log(
  JSON.stringify({
    bench: 'sandbox-sessions',
    machine: await machineNote(),
    samples,
    growth_mb_from_1000: growth(samples[0]),
    growth_mb_second_half: growth(half),
  }),
);
