// `svcctl mcp sync --file` of a declaration with 3 servers to all 25 clients (one process: every file read and
// written once) against one `svcctl mcp install` of one client with one server (one process), each in a fresh
// HOME, the two alternated round by round; then the second sync, which writes nothing. Goal: sync ≤ 1.5× install.
//   npm run build && node bench/mcp-sync.mjs
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alternatedRounds, bin, machineNote, median, root, runCommand, verdict } from './lib.mjs';

const ROUNDS = 9;
const WARMUP = 1;
const GOAL = 1.5;

const ids = [
  ...readFileSync(join(root, 'src', 'mcp', 'types.ts'), 'utf8')
    .split('export const CLIENT_IDS = [')[1]
    .split('] as const')[0]
    .matchAll(/'([a-z-]+)'/g),
].map((match) => match[1]);
// The token helper: the one way every client's entry holds no secret (docs/teams.md).
const server = (name) =>
  `[[server]]\nname = "${name}"\nbase_url = "https://${name}.example.com/api"\nmode = "remote"\nauth = "bearer"\ntoken = "helper"\n`;
const declaration = `clients = ${JSON.stringify(ids)}\nscope = "user"\n\n${['ops', 'docs', 'billing'].map(server).join('\n')}`;

const homes = [];
function freshHome() {
  const home = mkdtempSync(join(tmpdir(), 'svcctl-bench-sync-'));
  homes.push(home);
  writeFileSync(join(home, 'team.toml'), declaration);
  return home;
}
const envOf = (home) => ({ PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), NO_COLOR: '1' });

const COMMANDS = {
  sync: (home) => [bin, '--json', 'mcp', 'sync', '--file', join(home, 'team.toml')],
  install: () => [
    bin,
    'mcp',
    'install',
    '--client',
    'cursor',
    '--name',
    'ops',
    '--base-url',
    'https://ops.example.com/api',
    '--mode',
    'remote',
    '--auth',
    'bearer',
    '--token',
    'helper',
  ],
};

console.log(`mcp sync (3 servers × ${ids.length} clients) vs mcp install (1 × 1); ${await machineNote()}`);
const first = freshHome();
// Sync exits 7 when a client cannot take an entry; its report still says which files were written.
const probe = spawnSync(process.execPath, COMMANDS.sync(first), { env: envOf(first), encoding: 'utf8' });
const report = JSON.parse(probe.stdout);
const written = report.clients.filter((client) => client.status === 'changed').length;
const failed = report.clients.filter((client) => client.status !== 'changed').map((client) => client.client);
console.log(
  `first sync (exit ${probe.status}) wrote ${written} files${failed.length ? `; not written: ${failed.join(', ')}` : ''}`,
);

const samples = await alternatedRounds(
  ['sync', 'install'],
  ROUNDS,
  WARMUP,
  async (name) => {
    const home = freshHome();
    const started = performance.now();
    await runCommand(process.execPath, COMMANDS[name](home), { env: envOf(home) }).catch((error) => {
      if (!(name === 'sync' && / exited with 7:/.test(error.message))) throw error;
    });
    return performance.now() - started;
  },
  (values) => `sync ${values.sync.toFixed(0)} ms, install ${values.install.toFixed(0)} ms`,
);
const again = [];
for (let round = 0; round < 5; round++) {
  const started = performance.now();
  await runCommand(process.execPath, COMMANDS.sync(first), { env: envOf(first) }).catch(() => undefined);
  again.push(performance.now() - started);
}
const [sync, install] = [median(samples.sync), median(samples.install)];
const ratio = sync / install;
console.log(`median: sync ${sync.toFixed(0)} ms, install ${install.toFixed(0)} ms: ${ratio.toFixed(2)}×`);
console.log(`second sync (nothing to change): median ${median(again).toFixed(0)} ms`);
console.log(`goal sync ≤ ${GOAL}× install: ${verdict(ratio <= GOAL)}`);
for (const home of homes) rmSync(home, { recursive: true, force: true });
