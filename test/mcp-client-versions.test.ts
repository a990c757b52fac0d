/**
 * Clients that moved their file between versions, and clients that were shut
 * down or replaced, through the built CLI against `svcctl dev` with a temp HOME
 * (facts and sources: docs/clients-editors.md, "Antigravity"; docs/clients-agents.md):
 * - Antigravity 2 and agy read ~/.gemini/config/mcp_config.json; an entry left in
 *   Antigravity 1's ~/.gemini/antigravity/mcp_config.json is flagged by `list`,
 *   failed by `doctor` (exit 8) and moved by one `install` (the rest of the old
 *   file kept); `uninstall` removes it from every file; a workspace gets
 *   .agents/mcp_config.json;
 * - Roo Code (shut down) still installs, with a notice naming where its users went;
 * - with agy on the machine, a Gemini CLI entry is said not to reach it.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { sandboxWithUser } from './helpers/dev-sandbox.js';
import { tempDir } from './helpers/temp-dirs.js';

const ALICE = { email: 'alice@example.com', password: 'alice-versions-pw' };
const { ready, credentials } = sandboxWithUser(ALICE);
const readJson = async (path: string): Promise<any> => JSON.parse(await readFile(path, 'utf8'));

describe('Antigravity: the file of the installed version', () => {
  it('an entry only in the old file is stale: list flags it, doctor fails, install moves it and keeps the rest', async () => {
    const home = await tempDir('svcctl-agy-');
    const run = (args: string[]) => runCli(args, { home, env: credentials() });
    const oldFile = join(home, '.gemini', 'antigravity', 'mcp_config.json');
    const newFile = join(home, '.gemini', 'config', 'mcp_config.json');
    // Antigravity 2 is installed (its unified folder); svcctl once wrote the entry for Antigravity 1.
    await mkdir(join(home, '.gemini', 'config'), { recursive: true });
    await mkdir(join(home, '.gemini', 'antigravity'), { recursive: true });
    const other = { command: 'other-server', args: ['--flag'] };
    await writeFile(
      oldFile,
      `${JSON.stringify({ mcpServers: { other, service: { serverUrl: ready().mcp_url, headers: { 'X-Service-Email': ALICE.email, 'X-Service-Password': ALICE.password } } } }, null, 2)}\n`,
    );

    const listed = await run(['mcp', 'list', '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    const rows = JSON.parse(listed.stdout);
    assert.equal(rows.length, 1);
    assert.equal(rows[0].file, oldFile);
    assert.deepEqual(rows[0].stale, {
      read_by: 'Antigravity 1',
      current: newFile,
      current_reader: 'Antigravity 2 and agy',
      why: `'service' is in ${oldFile}, which only Antigravity 1 read; Antigravity 2 and agy read ${newFile}`,
    });
    const table = await run(['mcp', 'list']);
    assert.match(table.stdout, /remote \(stale\)/);
    assert.match(table.stderr, /will not load it: move it with: svcctl mcp install --client antigravity/);

    const doctor = await run(['mcp', 'doctor', '--client', 'antigravity']);
    assert.equal(doctor.code, 8, doctor.stdout + doctor.stderr);
    assert.match(
      doctor.stdout + doctor.stderr,
      /only Antigravity 1 read; Antigravity 2 and agy read .*config\/mcp_config\.json/,
    );

    const moved = await run(['mcp', 'install', '--client', 'antigravity', '--mode', 'remote']);
    assert.equal(moved.code, 0, moved.stderr);
    assert.match(moved.stderr, /which only Antigravity 1 read; Antigravity 2 and agy read .*: the entry moves there/);
    assert.deepEqual(Object.keys((await readJson(newFile)).mcpServers), ['service']);
    assert.deepEqual((await readJson(oldFile)).mcpServers, { other }, 'the old file keeps everything else');

    const after = await run(['mcp', 'list', '--json']);
    assert.deepEqual(
      JSON.parse(after.stdout).map((row: { file: string; stale?: unknown }) => [row.file, row.stale]),
      [[newFile, undefined]],
    );
    const healthy = await run(['mcp', 'doctor', '--client', 'antigravity']);
    assert.equal(healthy.code, 0, healthy.stdout + healthy.stderr);
  });

  it('uninstall removes the entry from the current and the old file', async () => {
    const home = await tempDir('svcctl-agy-');
    const run = (args: string[]) => runCli(args, { home, env: credentials() });
    await mkdir(join(home, '.gemini', 'config'), { recursive: true });
    await mkdir(join(home, '.gemini', 'antigravity'), { recursive: true });
    const entry = { serverUrl: ready().mcp_url };
    const oldFile = join(home, '.gemini', 'antigravity', 'mcp_config.json');
    const newFile = join(home, '.gemini', 'config', 'mcp_config.json');
    await writeFile(oldFile, JSON.stringify({ mcpServers: { service: entry } }));
    await writeFile(newFile, JSON.stringify({ mcpServers: { service: entry } }));
    const removed = await run(['mcp', 'uninstall', '--client', 'antigravity']);
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual((await readJson(oldFile)).mcpServers, {});
    assert.deepEqual((await readJson(newFile)).mcpServers, {});
  });

  it('a workspace gets .agents/mcp_config.json', async () => {
    const home = await tempDir('svcctl-agy-');
    const project = join(home, 'work');
    await mkdir(project);
    const installed = await runCli(
      ['mcp', 'install', '--client', 'antigravity', '--scope', 'project', '--project-dir', project, '--mode', 'remote'],
      { home, env: credentials() },
    );
    assert.equal(installed.code, 0, installed.stderr);
    assert.equal(
      (await readJson(join(project, '.agents', 'mcp_config.json'))).mcpServers.service.serverUrl,
      ready().mcp_url,
    );
  });
});

describe('shut down and replaced clients', () => {
  it('Roo Code: installing says it was shut down and names where its users went; the entry is still written', async () => {
    const home = await tempDir('svcctl-roo-');
    const installed = await runCli(
      ['mcp', 'install', '--client', 'roo-code', '--mode', 'remote', '--scope', 'project', '--project-dir', home],
      { home, env: credentials() },
    );
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(installed.stderr, /warning: Roo Code was shut down on 2026-05-15/);
    assert.match(installed.stderr, /Cline \(svcctl mcp install --client cline\).*Zoo Code/);
    assert.ok((await readJson(join(home, '.roo', 'mcp.json'))).mcpServers.service);
  });

  it('Zoo Code (the continuation of Roo Code): its own global storage file, the entry shape of Roo Code, no notice', async () => {
    const home = await tempDir('svcctl-zoo-');
    const installed = await runCli(['mcp', 'install', '--client', 'zoo-code', '--mode', 'remote'], {
      home,
      env: credentials(),
    });
    assert.equal(installed.code, 0, installed.stderr);
    assert.doesNotMatch(installed.stderr, /shut down/);
    const file = join(
      home,
      '.config',
      'Code',
      'User',
      'globalStorage',
      'zoocodeorganization.zoo-code',
      'settings',
      'mcp_settings.json',
    );
    assert.deepEqual((await readJson(file)).mcpServers.service, {
      type: 'streamable-http',
      url: ready().mcp_url,
      headers: { 'X-Service-Email': '${env:SERVICE_EMAIL}', 'X-Service-Password': '${env:SERVICE_PASSWORD}' },
    });
    const doctor = await runCli(['mcp', 'doctor', '--client', 'zoo-code'], { home, env: credentials() });
    assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
  });

  it('Gemini CLI: with agy on the machine, list and doctor say the entry will not reach it', async () => {
    const home = await tempDir('svcctl-gemini-');
    const run = (args: string[]) => runCli(args, { home, env: credentials() });
    assert.equal((await run(['mcp', 'install', '--client', 'gemini', '--mode', 'remote'])).code, 0);
    const before = await run(['mcp', 'list']);
    assert.doesNotMatch(before.stderr, /agy/, 'no agy yet: nothing to say');
    await mkdir(join(home, '.gemini', 'antigravity-cli'), { recursive: true });
    const listed = await run(['mcp', 'list']);
    assert.match(
      listed.stderr,
      /Antigravity's CLI \(agy\), which replaces Gemini CLI, is on this machine and does not read Gemini CLI's file: add the server for it with: svcctl mcp install --client antigravity/,
    );
    const doctor = await run(['mcp', 'doctor', '--client', 'gemini']);
    assert.match(doctor.stderr, /agy.*svcctl mcp install --client antigravity/);
    assert.equal((await run(['mcp', 'install', '--client', 'antigravity', '--mode', 'remote'])).code, 0);
    const after = await run(['mcp', 'list']);
    assert.doesNotMatch(after.stderr, /replaces Gemini CLI/);
  });
});
