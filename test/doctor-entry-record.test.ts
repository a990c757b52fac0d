/**
 * Whose an entry in a project's file is follows from svcctl's record of its own writes, never from the entry's
 * content: only the entry svcctl wrote into that very file, the file unchanged since, runs without a question.
 * A copy of it elsewhere, the same file with a byte more, the text put back after an uninstall, or a record that
 * others could have written, are the project's: off a terminal, exit 8 and nothing runs. The entries are remote
 * ones answered by an echo server on 127.0.0.1 (a run shows as its `initialize` line); where the working folder
 * matters, a command entry writes `pwd` to a file.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { appendFile, chmod, copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, type RunResult } from './helpers/cli.js';
import { startEchoMcpServer, type EchoMcpServer } from './helpers/echo-servers.js';
import { neverAppears, project, SECRETS } from './helpers/project-fixtures.js';
import { tempDir } from './helpers/temp-dirs.js';
import { allClients, CLIENTS } from '../src/mcp/clients/table.js';
import type { ClientId } from '../src/mcp/types.js';

let echo: EchoMcpServer;
before(async () => {
  echo = await startEchoMcpServer();
});
after(() => echo.close());

const env = (): Record<string, string> => ({
  ...SECRETS,
  SERVICE_BASE_URL: 'http://127.0.0.1:9/api',
  SERVICE_MCP_URL: echo.url('answer', 'plain'),
  SERVICE_ACCESS_TOKEN: 'entry-record-token-3141',
});

interface Place {
  home: string;
  dir: string;
}

const run = (place: Place, args: string[]): Promise<RunResult> =>
  runCli(args, { home: place.home, cwd: place.dir, env: env() });

const doctor = (client: string, ...extra: string[]): string[] => [
  'mcp',
  'doctor',
  '--client',
  client,
  '--scope',
  'project',
  '--timeout',
  '5',
  ...extra,
];

async function place(): Promise<Place> {
  return { home: await tempDir('svcctl-record-home-'), dir: await tempDir('svcctl-record-project-') };
}

/** Installs a remote entry (mcp-remote where the client documents no headers); returns the file it went into. */
async function install(where: Place, client: string, ...extra: string[]): Promise<string> {
  const mode = CLIENTS[client as ClientId].remoteHeadersUndocumented === undefined ? 'remote' : 'proxy';
  const args = ['--json', 'mcp', 'install', '--client', client, '--scope', 'project', '--mode', mode];
  const result = await run(where, [...args, '--auth', 'bearer', '--token', 'static', ...extra]);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  return (JSON.parse(result.stdout) as Array<{ file: string }>)[0]!.file;
}

function assertRan(result: RunResult): void {
  const said = result.stdout + result.stderr;
  assert.equal(result.code, 0, said);
  assert.match(result.stdout, /^✓ initialize: http:\/\/127\.0\.0\.1:\d+\/answer\/.* answered/m);
  assert.doesNotMatch(said, /project entry|not run:/);
}

function assertAsked(result: RunResult, name = 'service'): void {
  const said = result.stdout + result.stderr;
  assert.equal(result.code, 8, said);
  assert.match(said, new RegExp(`project entry: not run: '${name}' .* svcctl did not write it \\(it looks like`));
  assert.doesNotMatch(said, /initialize:/);
}

describe('every project-scope client: the entry svcctl wrote, and the same file a byte later', {
  concurrency: 4,
}, () => {
  for (const client of allClients().filter((spec) => spec.scopes.includes('project'))) {
    it(client.id, async () => {
      const where = await place();
      const file = await install(where, client.id);
      assertRan(await run(where, doctor(client.id)));
      await appendFile(file, '\n');
      assertAsked(await run(where, doctor(client.id)));
    });
  }
});

describe("svcctl's record of its writes", { concurrency: true }, () => {
  it('the installed file copied into another project: the copy is asked about, the original still runs', async () => {
    const mine = await place();
    const file = await install(mine, 'claude-code');
    const clone = { home: mine.home, dir: await tempDir('svcctl-record-clone-') };
    await copyFile(file, join(clone.dir, '.mcp.json'));
    assertAsked(await run(clone, doctor('claude-code')));
    assertRan(await run(mine, doctor('claude-code')));
  });

  it('two entries svcctl wrote into one file both run; an entry added by hand makes them the project', async () => {
    const where = await place();
    await install(where, 'claude-code', '--name', 'first');
    const file = await install(where, 'claude-code', '--name', 'second');
    for (const name of ['first', 'second']) assertRan(await run(where, doctor('claude-code', '--name', name)));
    const text = JSON.parse(await readFile(file, 'utf8')) as { mcpServers: Record<string, unknown> };
    text.mcpServers.third = { command: 'true' };
    await writeFile(file, JSON.stringify(text, null, 2));
    for (const name of ['first', 'second']) assertAsked(await run(where, doctor('claude-code', '--name', name)), name);
  });

  it('uninstall forgets it: the same text put back is the project', async () => {
    const where = await place();
    const file = await install(where, 'claude-code');
    const text = await readFile(file, 'utf8');
    const removed = await run(where, ['mcp', 'uninstall', '--client', 'claude-code', '--scope', 'project']);
    assert.equal(removed.code, 0, removed.stdout + removed.stderr);
    assert.equal(existsSync(file), false, 'uninstall removes the file svcctl created');
    await writeFile(file, text);
    assertAsked(await run(where, doctor('claude-code')));
  });

  for (const [what, make] of [
    ['the record writable by others', (state: string) => chmod(join(state, 'written-entries.json'), 0o666)],
    ["svcctl's state folder writable by others", (state: string) => chmod(state, 0o777)],
  ] as const) {
    it(`${what}: it vouches for nothing`, { skip: process.platform === 'win32' }, async () => {
      const where = await place();
      await install(where, 'claude-code');
      await make(join(where.home, '.local', 'state', 'svcctl'));
      assertAsked(await run(where, doctor('claude-code')));
    });
  }
});

describe('where doctor starts what it runs', { concurrency: true }, () => {
  const pwdEntry = (marker: string) => ({ command: 'sh', args: ['-c', `pwd > ${marker}`] });
  const startedIn = (marker: string): string => readFileSync(marker, 'utf8').trim();

  it("a project's entry, allowed with --trust-project: in the project, as the client starts it", async () => {
    const p = await project(pwdEntry);
    const result = await runCli(doctor('claude-code', '--trust-project'), { home: p.home, cwd: p.dir, env: SECRETS });
    assert.ok(existsSync(p.marker), result.stdout + result.stderr);
    assert.equal(startedIn(p.marker), p.dir);
  });

  it("an entry of the user's own config: in svcctl's runner folder, outside the project", async () => {
    const p = await project(pwdEntry);
    await copyFile(join(p.dir, '.mcp.json'), join(p.home, '.claude.json'));
    const args = ['mcp', 'doctor', '--client', 'claude-code', '--scope', 'user', '--timeout', '5'];
    const result = await runCli(args, { home: p.home, cwd: p.dir, env: SECRETS });
    assert.ok(existsSync(p.marker), result.stdout + result.stderr);
    const runner = join(p.home, '.local', 'state', 'svcctl', 'runner');
    assert.equal(startedIn(p.marker), runner);
    // npm looks no further up than a package.json: the runner folder has its own.
    assert.equal(existsSync(join(runner, 'package.json')), true);
  });

  it('a runner folder others can write: the runner check fails and nothing runs', {
    skip: process.platform === 'win32',
  }, async () => {
    const p = await project(pwdEntry);
    await copyFile(join(p.dir, '.mcp.json'), join(p.home, '.claude.json'));
    const runner = join(p.home, '.local', 'state', 'svcctl', 'runner');
    await mkdir(runner, { recursive: true });
    await chmod(runner, 0o777);
    const args = ['mcp', 'doctor', '--client', 'claude-code', '--scope', 'user', '--timeout', '5'];
    const result = await runCli(args, { home: p.home, cwd: p.dir, env: SECRETS });
    await neverAppears(p.marker);
    assert.equal(result.code, 8, result.stdout + result.stderr);
    assert.match(result.stdout, new RegExp(`runner: ${runner} is not a folder of yours that only you can write`));
    assert.match(result.stdout, new RegExp(`fix: .*chmod 700 ${runner}`));
    assert.equal(dirname(runner).endsWith('svcctl'), true);
  });
});
