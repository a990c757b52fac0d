/**
 * `svcctl mcp doctor` on local-mode entries. The real service-mcp-server is
 * not on this offline machine, so the entries run a small stdio MCP server
 * (test/fixtures/fake-mcp-server) — through npx with --package, or written by
 * hand — which, like the real one, refuses to start without its variables.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT, runCli, secretsIn, type RunResult } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const SERVER_DIR = join(ROOT, 'test', 'fixtures', 'fake-mcp-server');
const SERVER = join(SERVER_DIR, 'server.mjs');
const USER = { SERVICE_EMAIL: 'local@example.com', SERVICE_PASSWORD: 'local-doctor-pw' };
const BASE_URL = 'http://127.0.0.1:9/api';

let home: string;
before(async () => {
  home = await tempDir('svcctl-doctor-local-');
});
after(async () => {
  await rm(home, { recursive: true, force: true });
});

const run = (args: string[], env: Record<string, string | undefined> = USER): Promise<RunResult> =>
  runCli(args, { home, env });
const lineOf = (result: RunResult, name: string): string =>
  result.stdout.split('\n').find((line) => line.slice(2).startsWith(`${name}:`)) ?? '';

/** A hand-written entry in a generic mcpServers file. */
async function handWritten(name: string, entry: Record<string, unknown>): Promise<string> {
  const file = join(home, 'hand', `${name}.json`);
  await mkdir(join(home, 'hand'), { recursive: true });
  await writeFile(file, JSON.stringify({ mcpServers: { [name]: entry } }, null, 2));
  return file;
}

describe('mcp doctor: local mode', () => {
  it('installed with --package (run through npx): node, npx, and the server answering initialize', async () => {
    const installed = await run(
      ['mcp', 'install', '--client', 'claude-code', '--scope', 'project', '--package', SERVER_DIR],
      { SERVICE_BASE_URL: BASE_URL },
    );
    assert.equal(installed.code, 0, installed.stderr);
    // The project entry runs without asking: it is what svcctl writes for that package and base URL.
    const result = await run(['mcp', 'doctor', '--client', 'claude-code', '--package', SERVER_DIR], {
      ...USER,
      SERVICE_BASE_URL: BASE_URL,
    });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(lineOf(result, 'entry'), /^✓ entry: 'service' found: local mode \(command, args, env\)$/);
    assert.match(lineOf(result, 'node'), /^✓ node: node v\d+\.\d+\.\d+ at \//);
    assert.match(lineOf(result, 'runner'), /^✓ runner: npx found at \//);
    // The server's own name proves that it ran (svcctl cannot know it otherwise).
    assert.match(
      lineOf(result, 'initialize'),
      new RegExp(`^✓ initialize: \`npx -y ${SERVER_DIR}\` started and answered \\(fake-mcp-server 1\\.0\\.0\\)$`),
    );
    assert.deepEqual(secretsIn(result, [USER.SERVICE_PASSWORD]), []);
  });

  it('a variable the entry references is not set: exit 8 naming it, and the server is not started', async () => {
    const result = await run(['mcp', 'doctor', '--client', 'claude-code', '--package', SERVER_DIR], {
      SERVICE_EMAIL: USER.SERVICE_EMAIL,
      SERVICE_BASE_URL: BASE_URL,
    });
    assert.equal(result.code, 8);
    assert.match(lineOf(result, 'variables'), /^✗ variables: not set: SERVICE_PASSWORD/);
    assert.match(lineOf(result, 'initialize'), /^✗ initialize: not tried: SERVICE_PASSWORD is not set$/);
  });

  it('an entry that does not pass a variable to the server: the server exits, and its stderr is shown', async () => {
    // SERVICE_PASSWORD is in doctor's environment, but the entry does not hand it on: a client would not either.
    const file = await handWritten('forgetful', {
      command: process.execPath,
      args: [SERVER],
      env: { SERVICE_EMAIL: '${SERVICE_EMAIL}', SERVICE_BASE_URL: BASE_URL },
    });
    const result = await run(['mcp', 'doctor', '--config', file, '--trust-project']);
    assert.equal(result.code, 8);
    assert.match(
      lineOf(result, 'initialize'),
      /^✗ initialize: .* exited before answering initialize; its stderr: fake-mcp-server: SERVICE_PASSWORD not set$/,
    );
    assert.match(result.stdout, /^ {2}fix: check that the command runs in a terminal/m);
  });

  it('a command that does not exist: exit 8, the runner check says so and nothing is started', async () => {
    const file = await handWritten('ghost', { command: 'svcctl-no-such-server', args: [], env: {} });
    const result = await run(['mcp', 'doctor', '--config', file, '--trust-project', '--name', 'ghost', '--json']);
    assert.equal(result.code, 8);
    const report = JSON.parse(result.stdout);
    const byName = Object.fromEntries(report.checks.map((check: { name: string }) => [check.name, check]));
    assert.equal(byName.runner.ok, false);
    assert.equal(byName.runner.detail, 'svcctl-no-such-server is not on PATH');
    assert.match(byName.runner.fix, /install svcctl-no-such-server, or fix the entry's command/);
    assert.equal(byName.initialize.ok, false);
    assert.equal(byName.node.ok, true);
  });

  it('node --version is asked once per node file, and again once that file is replaced (an upgrade)', {
    skip: process.platform === 'win32',
  }, async () => {
    const bin = join(home, 'fake-node');
    const asked = join(home, 'fake-node-asked');
    await mkdir(bin, { recursive: true });
    const fakeNode = (version: string) =>
      writeFile(join(bin, 'node'), `#!/bin/sh\necho "$*" >> '${asked}'\necho ${version}\n`, { mode: 0o755 });
    const file = await handWritten('versions', { command: 'svcctl-no-such-server', args: [], env: {} });
    const doctor = () =>
      run(['mcp', 'doctor', '--config', file, '--trust-project', '--name', 'versions'], {
        PATH: `${bin}:/usr/bin:/bin`,
      });
    await fakeNode('v22.1.0');
    for (const round of [1, 2])
      assert.match(lineOf(await doctor(), 'node'), /^✓ node: node v22\.1\.0 at \//, `${round}`);
    assert.equal(await readFile(asked, 'utf8'), '--version\n');
    await fakeNode('v18.20.0');
    assert.match(lineOf(await doctor(), 'node'), /^✗ node: node v18\.20\.0 at .* is older than 20$/);
    assert.equal(await readFile(asked, 'utf8'), '--version\n--version\n');
  });

  it('a server that never answers fails within --timeout', async () => {
    const file = await handWritten('silent', {
      command: process.execPath,
      args: [SERVER],
      env: { ...USER, SERVICE_BASE_URL: BASE_URL, FAKE_MCP_HANG: '1' },
    });
    const result = await run(['mcp', 'doctor', '--config', file, '--trust-project', '--timeout', '1']);
    assert.equal(result.code, 8);
    assert.match(lineOf(result, 'initialize'), /did not answer initialize within 1 s$/);
    assert.deepEqual(secretsIn(result, [USER.SERVICE_PASSWORD]), []);
  });

  it('Zed (context_servers, literal values) and Codex (env_vars forwarded by name), written by hand', async () => {
    await mkdir(join(home, '.config', 'zed'), { recursive: true });
    await writeFile(
      join(home, '.config', 'zed', 'settings.json'),
      `// Zed settings\n{\n  "context_servers": {\n    "service": { "source": "custom", "command": "${process.execPath}", "args": ["${SERVER}"], "env": { "SERVICE_EMAIL": "z@example.com", "SERVICE_PASSWORD": "zed-pw", "SERVICE_BASE_URL": "${BASE_URL}" } },\n  },\n}\n`,
    );
    const zed = await run(['mcp', 'doctor', '--client', 'zed'], {});
    assert.equal(zed.code, 0, zed.stdout + zed.stderr);
    assert.deepEqual(secretsIn(zed, ['zed-pw']), []);

    await mkdir(join(home, '.codex'), { recursive: true });
    await writeFile(
      join(home, '.codex', 'config.toml'),
      `[mcp_servers.service]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(SERVER)}]\nenv = { SERVICE_BASE_URL = "${BASE_URL}" }\nenv_vars = ["SERVICE_EMAIL", "SERVICE_PASSWORD"]\n`,
    );
    const codex = await run(['mcp', 'doctor', '--client', 'codex']);
    assert.equal(codex.code, 0, codex.stdout + codex.stderr);
    assert.match(lineOf(codex, 'variables'), /^✓ variables: set: SERVICE_EMAIL, SERVICE_PASSWORD$/);
    const unforwarded = await run(['mcp', 'doctor', '--client', 'codex'], { SERVICE_EMAIL: USER.SERVICE_EMAIL });
    assert.equal(unforwarded.code, 8);
    assert.match(lineOf(unforwarded, 'variables'), /not set: SERVICE_PASSWORD/);
  });
});
