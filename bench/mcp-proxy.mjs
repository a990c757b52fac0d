// The overhead of `svcctl mcp proxy`: tools/list round trips through the proxy
// (MCP SDK client over stdio → proxy → Streamable HTTP → `svcctl dev`) against
// the same client talking Streamable HTTP to `svcctl dev` directly, plus the
// proxy's start-up (spawn to initialize answered) and the helper's fast path
// (`svcctl token --refresh --json-headers` with a fresh saved token), and
// `svcctl mcp doctor` on a remote entry (spawn to exit: connect, tools/list).
//   npm run build && node bench/mcp-proxy.mjs
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { bin, median, timeCommand } from './lib.mjs';

const ROUNDS = 3;
const CALLS = 300;
const USER = { email: 'bench@example.com', password: 'bench-Pa55word' };
const home = mkdtempSync(join(tmpdir(), 'svcctl-bench-proxy-'));
const env = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), NO_COLOR: '1' };

const dev = spawn(process.execPath, [bin, 'dev', '--user', `${USER.email}:${USER.password}`], {
  env,
  stdio: ['ignore', 'pipe', 'ignore'],
});
const ready = await new Promise((resolve) =>
  dev.stdout.once('data', (chunk) => resolve(JSON.parse(String(chunk).split('\n')[0]))),
);
const cliEnv = { ...env, SERVICE_BASE_URL: ready.base_url };
const token = execFileSync(process.execPath, [bin, 'login', '--save', '--email', USER.email], {
  env: { ...cliEnv, SERVICE_PASSWORD: USER.password },
})
  .toString()
  .trim();

const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

async function roundTrips(client) {
  for (let i = 0; i < 20; i++) await client.listTools(); // warm-up
  const times = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await client.listTools();
    times.push(performance.now() - started);
  }
  return times;
}

async function direct() {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(ready.mcp_url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  try {
    return await roundTrips(client);
  } finally {
    await client.close();
  }
}

async function proxied() {
  const client = new Client({ name: 'bench', version: '1' });
  const started = performance.now();
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', 'proxy'], env: cliEnv, stderr: 'ignore' }),
  );
  const startup = performance.now() - started;
  try {
    return { startup, times: await roundTrips(client) };
  } finally {
    await client.close();
  }
}

const rows = { direct: [], proxy: [], startup: [] };
for (let round = 0; round < ROUNDS; round++) {
  rows.direct.push(...(await direct()));
  const { startup, times } = await proxied();
  rows.proxy.push(...times);
  rows.startup.push(startup);
}
const helper = [];
for (let i = 0; i < 20; i++)
  helper.push(await timeCommand(process.execPath, [bin, 'token', '--refresh', '--json-headers'], { env: cliEnv }));

const doctorFile = join(home, 'doctor.json');
writeFileSync(
  doctorFile,
  JSON.stringify({ mcpServers: { svc: { url: ready.mcp_url, headers: { Authorization: `Bearer ${token}` } } } }),
);
const doctor = [];
for (let i = 0; i < 10; i++)
  doctor.push(
    await timeCommand(process.execPath, [bin, 'mcp', 'doctor', '--config', doctorFile, '--trust-project'], {
      env: cliEnv,
    }),
  );

const fmt = (ms) => `${ms.toFixed(2)} ms`;
console.log(`tools/list round trips (${ROUNDS} rounds × ${CALLS} calls, one client each)`);
for (const name of ['direct', 'proxy'])
  console.log(`  ${name.padEnd(7)} median ${fmt(median(rows[name]))}  p95 ${fmt(percentile(rows[name], 0.95))}`);
console.log(`  overhead of the proxy: median +${fmt(median(rows.proxy) - median(rows.direct))}`);
console.log(`proxy start-up (spawn → initialize answered), median of ${ROUNDS}: ${fmt(median(rows.startup))}`);
console.log(
  `token --refresh --json-headers with a fresh saved token (no request), median of 20: ${fmt(median(helper))}`,
);
console.log(`mcp doctor --config (remote entry, bearer): spawn to exit, median of 10: ${fmt(median(doctor))}`);

// The sandbox may still be writing its compile cache into home: it is removed once the process is gone.
const exited = new Promise((resolve) => dev.once('exit', resolve));
dev.kill('SIGTERM');
await exited;
rmSync(home, { recursive: true, force: true });
