/**
 * Visual Studio, LM Studio and Antigravity through the built CLI against
 * `svcctl dev`, with a temp HOME:
 * - LM Studio and Antigravity expand no variables: a remote entry with literal
 *   values (file 0600), found by `list`, shown by `print --show-secrets`, read
 *   by `doctor` (which logs in), removed by `uninstall`; LM Studio's home
 *   pointer file moves its mcp.json.
 * - Visual Studio's solution file is named `.mcp.json` like Claude Code's
 *   project file: both clients' entries live in one file (`servers` beside
 *   `mcpServers`), `list` and `doctor` keep them apart, uninstalling one leaves
 *   the other. Its entry is a `svcctl mcp proxy` one (--token helper), which
 *   doctor starts as Visual Studio would.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BIN, runCli, secretsIn } from './helpers/cli.js';
import { sandboxWithUser } from './helpers/dev-sandbox.js';
import { tempDir } from './helpers/temp-dirs.js';

const ALICE = { email: 'alice@example.com', password: 'alice-apps-pw' };

const { ready, credentials } = sandboxWithUser(ALICE);

describe('LM Studio and Antigravity: literal values, install → list → print → doctor → uninstall', () => {
  const cases = [
    {
      id: 'lm-studio',
      file: ['.lmstudio', 'mcp.json'],
      entry: (url: string) => ({
        url,
        headers: { 'X-Service-Email': ALICE.email, 'X-Service-Password': ALICE.password },
      }),
    },
    {
      id: 'antigravity',
      file: ['.gemini', 'config', 'mcp_config.json'],
      entry: (url: string) => ({
        serverUrl: url,
        headers: { 'X-Service-Email': ALICE.email, 'X-Service-Password': ALICE.password },
      }),
    },
  ];
  for (const { id, file: parts, entry } of cases) {
    it(id, async () => {
      const home = await tempDir(`svcctl-${id}-`);
      const run = (args: string[]) => runCli(args, { home, env: credentials() });
      const installed = await run(['mcp', 'install', '--client', id, '--mode', 'remote']);
      assert.equal(installed.code, 0, installed.stderr);
      assert.match(installed.stderr, /literal/i);
      const file = join(home, ...parts);
      const written = JSON.parse(await readFile(file, 'utf8'));
      assert.deepEqual(written, { mcpServers: { service: entry(ready().mcp_url) } });
      assert.equal(
        (await stat(file)).mode & 0o777,
        0o600,
        'a file with a literal password is readable only by its owner',
      );

      const listed = await run(['mcp', 'list', '--json']);
      assert.deepEqual(
        JSON.parse(listed.stdout).map((row: { client: string; scope: string; file: string; mode: string }) => [
          row.client,
          row.scope,
          row.file,
          row.mode,
        ]),
        [[id, 'user', file, 'remote']],
      );
      const printed = await run(['--json', 'mcp', 'print', '--client', id, '--mode', 'remote', '--show-secrets']);
      assert.equal(printed.code, 0, printed.stderr);
      assert.deepEqual(JSON.parse(printed.stdout).entry, written.mcpServers.service);
      const doctor = await run(['mcp', 'doctor', '--client', id]);
      assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
      assert.match(doctor.stdout, /^✓ tools\/list: /m);
      assert.deepEqual(secretsIn(doctor, [ALICE.password]), []);

      const removed = await run(['mcp', 'uninstall', '--client', id]);
      assert.equal(removed.code, 0, removed.stderr);
      assert.ok(!existsSync(file), 'svcctl created the file, so it goes with its only entry');
    });
  }

  it('LM Studio follows ~/.lmstudio-home-pointer to its home', async () => {
    const home = await tempDir('svcctl-lms-pointer-');
    const lmsHome = join(home, 'lms-data');
    await writeFile(join(home, '.lmstudio-home-pointer'), `${lmsHome}\n`);
    const installed = await runCli(['mcp', 'install', '--client', 'lm-studio'], { home, env: credentials() });
    assert.equal(installed.code, 0, installed.stderr);
    assert.deepEqual(Object.keys(JSON.parse(await readFile(join(lmsHome, 'mcp.json'), 'utf8')).mcpServers), [
      'service',
    ]);
  });
});

/** A temp HOME with svcctl on PATH (a link to the built CLI, as npm install -g makes) and a saved login. */
async function homeWithSvcctl(): Promise<{ home: string; env: Record<string, string> }> {
  const home = await tempDir('svcctl-vs-');
  await mkdir(join(home, 'bin'));
  await symlink(BIN, join(home, 'bin', 'svcctl'));
  const env = { ...credentials(), PATH: `${join(home, 'bin')}:${process.env.PATH}` };
  const login = await runCli(['login', '--save', '--email', ALICE.email], { home, env });
  assert.equal(login.code, 0, login.stderr);
  return { home, env };
}

describe('Visual Studio and Claude Code share <solution>/.mcp.json', () => {
  it('both entries in one file; list, doctor and uninstall keep them apart', async () => {
    const { home, env } = await homeWithSvcctl();
    const proj = join(home, 'solution');
    await mkdir(proj);
    const run = (args: string[]) => runCli(args, { home, env, cwd: proj });
    const claude = await run(['mcp', 'install', '--client', 'claude-code', '--scope', 'project', '--mode', 'remote']);
    assert.equal(claude.code, 0, claude.stderr);
    const vs = await run([
      'mcp',
      'install',
      '--client',
      'visual-studio',
      '--scope',
      'project',
      '--mode',
      'proxy',
      '--auth',
      'bearer',
      '--token',
      'helper',
    ]);
    assert.equal(vs.code, 0, vs.stderr);
    const file = join(proj, '.mcp.json');
    const both = JSON.parse(await readFile(file, 'utf8'));
    assert.deepEqual(both.mcpServers.service, {
      type: 'http',
      url: ready().mcp_url,
      headers: { 'X-Service-Email': '${SERVICE_EMAIL}', 'X-Service-Password': '${SERVICE_PASSWORD}' },
    });
    // svcctl by name, not this clone's path: a project file is read on every member's machine (docs/teams.md).
    assert.deepEqual(both.servers.service, {
      type: 'stdio',
      command: 'svcctl',
      args: ['--base-url', ready().base_url, 'mcp', 'proxy'],
    });

    const listed = await run(['mcp', 'list', '--json']);
    const rows = JSON.parse(listed.stdout).map((row: { client: string; scope: string; file: string; mode: string }) => [
      row.client,
      row.scope,
      row.file,
      row.mode,
    ]);
    assert.deepEqual(rows, [
      ['claude-code', 'project', file, 'remote'],
      ['visual-studio', 'project', file, 'proxy'],
    ]);

    const doctorAll = await run(['mcp', 'doctor']);
    assert.equal(doctorAll.code, 0, doctorAll.stdout + doctorAll.stderr);
    assert.match(
      doctorAll.stdout + doctorAll.stderr,
      /Checking 'service' of claude-code \(project scope\): remote mode/,
    );
    assert.match(
      doctorAll.stdout + doctorAll.stderr,
      /Checking 'service' of visual-studio \(project scope\): proxy mode/,
    );
    assert.match(doctorAll.stdout + doctorAll.stderr, /2 entries checked: 2 passed, 0 failed/);
    const vsDoctor = await run(['--json', 'mcp', 'doctor', '--client', 'visual-studio', '--scope', 'project']);
    assert.equal(vsDoctor.code, 0, vsDoctor.stdout + vsDoctor.stderr);
    const vsReport = JSON.parse(vsDoctor.stdout);
    assert.deepEqual([vsReport.client, vsReport.file, vsReport.mode], ['visual-studio', file, 'proxy']);
    assert.ok(vsReport.checks.some((check: { name: string; ok: boolean }) => check.name === 'tools' && check.ok));
    const claudeDoctor = await run(['--json', 'mcp', 'doctor', '--client', 'claude-code', '--scope', 'project']);
    assert.equal(claudeDoctor.code, 0, claudeDoctor.stdout + claudeDoctor.stderr);
    assert.equal(JSON.parse(claudeDoctor.stdout).mode, 'remote');
    for (const result of [vsDoctor, claudeDoctor]) assert.deepEqual(secretsIn(result, [ALICE.password]), []);

    const removed = await run(['mcp', 'uninstall', '--client', 'visual-studio', '--scope', 'project']);
    assert.equal(removed.code, 0, removed.stderr);
    const left = JSON.parse(await readFile(file, 'utf8'));
    assert.deepEqual(left, { mcpServers: { service: both.mcpServers.service }, servers: {} });
  });

  it('--mode remote is refused (no documented headers field); .vs/mcp.json is the local scope', async () => {
    const home = await tempDir('svcctl-vs-remote-');
    // Refused before any credential is asked for (no password is given here).
    const remote = await runCli(['mcp', 'install', '--client', 'visual-studio', '--mode', 'remote'], {
      home,
      env: { SERVICE_BASE_URL: ready().base_url },
    });
    assert.equal(remote.code, 2, remote.stderr);
    assert.match(remote.stderr, /names no field for a remote server's headers/);
    assert.match(remote.stderr, /--mode proxy/);
    const shared = await runCli(
      ['mcp', 'print', '--client', 'visual-studio', '--scope', 'project', '--mode', 'proxy'],
      { home, env: credentials(), cwd: home },
    );
    assert.equal(shared.code, 0, shared.stderr);
    assert.match(shared.stderr, /Claude Code reads a \.mcp\.json too/);
    const print = await runCli(
      ['--json', 'mcp', 'print', '--client', 'visual-studio', '--scope', 'local', '--secrets', 'prompt'],
      { home, env: credentials(), cwd: home },
    );
    assert.equal(print.code, 0, print.stderr);
    const printed = JSON.parse(print.stdout);
    assert.equal(printed.file, join(home, '.vs', 'mcp.json'));
    assert.deepEqual(
      printed.inputs.map((input: { id: string }) => input.id),
      ['service_email', 'service_password'],
    );
  });
});
