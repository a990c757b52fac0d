/**
 * Concurrent writers of one file (issue 8): svcctl runs take turns on a lock
 * per file, and a program that takes no lock (a stand-in for Claude Code
 * rewriting ~/.claude.json) keeps its change while ours is applied again on
 * top of it. Every run exits 0 with its entry in the file, or 7 with nothing
 * written; never 0 with its entry missing.
 */
import assert from 'node:assert/strict';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { placeFile, runCli, type RunResult } from './helpers/cli.js';
import { EMAIL, PASSWORD, startLoginServer, type LoginServer } from './helpers/login-server.js';
import { tempDir } from './helpers/temp-dirs.js';

const ENV = { SERVICE_BASE_URL: 'https://acme.example.com/api' };
const install = (home: string, name: string): Promise<RunResult> =>
  runCli(['mcp', 'install', '--client', 'cursor', '--name', name, '--mode', 'remote'], {
    home,
    env: ENV,
    realPause: true,
  });

const serversIn = (text: string): string[] =>
  Object.keys((JSON.parse(text) as { mcpServers: object }).mcpServers).sort();

/** Runs `count` jobs, `width` at a time (each job is one concurrent pair on its own file). */
async function inBatches(count: number, width: number, job: (index: number) => Promise<void>): Promise<void> {
  for (let start = 0; start < count; start += width) {
    await Promise.all(Array.from({ length: Math.min(width, count - start) }, (_, offset) => job(start + offset)));
  }
}

test('20 pairs of concurrent installs with different names on one file: both entries every time, both exit 0', async () => {
  await inBatches(20, 4, async (pair) => {
    const home = await tempDir();
    const file = await placeFile(home, '.cursor/mcp.json', '{"mcpServers":{}}\n');
    const [a, b] = await Promise.all([install(home, 'a'), install(home, 'b')]);
    // With the lock the second run waits and re-reads: neither has a reason to give up.
    assert.equal(a.code, 0, `pair ${pair} a: ${a.stderr}`);
    assert.equal(b.code, 0, `pair ${pair} b: ${b.stderr}`);
    assert.deepEqual(serversIn(await readFile(file, 'utf8')), ['a', 'b'], `pair ${pair}`);
    assert.deepEqual(
      (await readdir(join(home, '.cursor'))).sort(),
      ['mcp.json', 'mcp.json.bak'],
      `pair ${pair}: no temp or lock file left`,
    );
  });
});

/**
 * A writer that takes no lock and rewrites the whole file in a loop, keeping
 * what it read (read, change its own key, write a temp file, rename), as an
 * application rewriting its state file does. Each rewrite is synchronous, so
 * it is one short step between two of svcctl's.
 */
function startPlainWriter(file: string): { stop: () => Promise<number> } {
  let count = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      data.writerCount = ++count;
      writeFileSync(`${file}.writer`, `${JSON.stringify(data, null, 2)}\n`);
      renameSync(`${file}.writer`, file);
      await new Promise((resolve) => setTimeout(resolve, 3 + Math.random() * 6));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return count;
    },
  };
}

/*
 * svcctl exits 0 only after its entry has stayed in the file for 0.18 s, and the writer
 * keeps rewriting until after svcctl has returned, so on exit 0 both changes are in the
 * file: ours (read back) and the writer's (its last rewrite came after svcctl's last
 * rename). A refusal (exit 7) under a loaded machine is allowed, and writes nothing.
 */
test('installs racing a writer that takes no lock: exit 0 with both changes kept, or 7 with nothing written', async () => {
  let written = 0;
  let rounds = 0;
  const oneRound = async (round: number): Promise<void> => {
    const home = await tempDir();
    const file = await placeFile(home, '.cursor/mcp.json', '{"mcpServers":{"theirs":{"url":"https://x.example"}}}\n');
    const writer = startPlainWriter(file);
    const result = await install(home, 'ours');
    const writes = await writer.stop();
    const final = JSON.parse(await readFile(file, 'utf8')) as { mcpServers: object; writerCount: number };
    assert.ok(writes > 0, 'the writer ran while svcctl did');
    const names = Object.keys(final.mcpServers).sort();
    assert.ok(names.includes('theirs'), `round ${round}: the other entries are kept`);
    if (result.code === 0) {
      written++;
      assert.ok(names.includes('ours'), `round ${round}: exit 0 with our entry in the file`);
      assert.equal(final.writerCount, writes, `round ${round}: exit 0 with the writer's last change kept`);
    } else {
      assert.equal(result.code, 7, `round ${round}: ${result.stderr}`);
      assert.match(result.stderr, /nothing was written/);
      assert.deepEqual(names, ['theirs'], `round ${round}: exit 7 means nothing was written`);
    }
  };
  // A loaded machine can make the writer undo every try of 10 rounds: more rounds then, until one succeeds.
  while (rounds < 10 || (written === 0 && rounds < 50)) {
    await inBatches(10, 2, (round) => oneRound(rounds + round));
    rounds += 10;
  }
  // Re-applying on the new content is what makes these succeed; all refusals would mean it never worked.
  assert.ok(written > 0, `installs that succeeded: ${written}`);
});

let server: LoginServer;
let other: LoginServer;
before(async () => {
  server = await startLoginServer();
  other = await startLoginServer();
});
after(async () => {
  await server.close();
  await other.close();
});

test('10 pairs of concurrent login --save for two base URLs keep both tokens and both deployments', async () => {
  const login = (home: string, target: LoginServer) =>
    runCli(['login', '--save', '--remember-deployment'], {
      home,
      env: { SERVICE_BASE_URL: target.baseUrl, SERVICE_EMAIL: EMAIL, SERVICE_PASSWORD: PASSWORD },
    });
  await inBatches(10, 5, async (pair) => {
    const home = await tempDir();
    const [a, b] = await Promise.all([login(home, server), login(home, other)]);
    assert.equal(a.code, 0, `pair ${pair}: ${a.stderr}`);
    assert.equal(b.code, 0, `pair ${pair}: ${b.stderr}`);
    const folder = join(home, '.config', 'svcctl');
    const saved = JSON.parse(await readFile(join(folder, 'credentials.json'), 'utf8')) as {
      tokens: Record<string, { access_token: string }>;
    };
    assert.deepEqual(Object.keys(saved.tokens).sort(), [server.baseUrl, other.baseUrl].sort(), `pair ${pair}`);
    // Each saved token is one the server issued (checked against the servers, not svcctl's output).
    assert.ok(server.issued.includes(saved.tokens[server.baseUrl]!.access_token));
    assert.ok(other.issued.includes(saved.tokens[other.baseUrl]!.access_token));
    assert.deepEqual(
      (await readdir(folder)).sort(),
      ['config.toml', 'config.toml.bak', 'credentials.json'],
      `pair ${pair}: no temp or lock file left (the second login's edit keeps the first's as .bak)`,
    );
    // Both deployments are remembered too (config.toml is written under its own lock).
    const config = await readFile(join(folder, 'config.toml'), 'utf8');
    for (const target of [server, other])
      assert.ok(config.includes(`base_url = "${target.baseUrl}"`), `pair ${pair}: ${config}`);
  });
});
