/**
 * opencode 2 reads its servers under `mcp.servers` (anomalyco/opencode
 * specs/v2/config.md, "Group 9: Integrations"); opencode 1 under `mcp`. Which
 * one is installed is asked from the program on the PATH (`opencode --version`,
 * or an `opencode2` program): here small scripts stand in for it, printing the
 * versions the real ones print (1.18.33; a 0.0.0-next build of the next channel).
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const ENV = { SERVICE_BASE_URL: 'https://acme.example.com/api' };

async function homeWith(
  programs: Record<string, string>,
): Promise<{ home: string; env: Record<string, string>; file: string }> {
  const home = await tempDir('svcctl-opencode-');
  const bin = join(home, 'bin');
  await mkdir(bin);
  for (const [name, version] of Object.entries(programs))
    await writeFile(join(bin, name), `#!/bin/sh\necho '${version}'\n`, { mode: 0o755 });
  return {
    home,
    env: { ...ENV, PATH: `${bin}:${process.env.PATH}` },
    file: join(home, '.config', 'opencode', 'opencode.jsonc'),
  };
}

const readJson = async (path: string): Promise<any> => JSON.parse(await readFile(path, 'utf8'));

describe('opencode 1 and 2', () => {
  it('opencode 1.18.33 on the PATH: the entry under mcp', async () => {
    const { home, env, file } = await homeWith({ opencode: '1.18.33' });
    const result = await runCli(['mcp', 'install', '--client', 'opencode', '--mode', 'remote'], {
      home,
      env,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(Object.keys((await readJson(file)).mcp), ['service']);
  });

  for (const [programs, what] of [
    [{ opencode: '0.0.0-next-15747' }, 'opencode reporting a next build'],
    [{ opencode: '2.0.1' }, 'opencode 2.0.1'],
    [{ opencode2: '0.0.0-next-15747' }, 'an opencode2 program alone'],
  ] as const) {
    it(`${what}: the entry under mcp.servers, with no enabled field`, async () => {
      const { home, env, file } = await homeWith(programs);
      const result = await runCli(['mcp', 'install', '--client', 'opencode', '--mode', 'remote'], {
        home,
        env,
      });
      assert.equal(result.code, 0, result.stderr);
      const written = await readJson(file);
      assert.deepEqual(Object.keys(written.mcp), ['servers']);
      assert.deepEqual(written.mcp.servers.service, {
        type: 'remote',
        url: 'https://acme.example.com/mcp',
        headers: { 'X-Service-Email': '{env:SERVICE_EMAIL}', 'X-Service-Password': '{env:SERVICE_PASSWORD}' },
      });
      const listed = JSON.parse((await runCli(['mcp', 'list', '--json'], { home, env })).stdout);
      assert.deepEqual(
        listed.map((row: { client: string; stale?: unknown }) => [row.client, row.stale]),
        [['opencode', undefined]],
      );
    });
  }

  it('after an upgrade to opencode 2: an entry of opencode 1 is flagged, then moved under mcp.servers (the rest kept)', async () => {
    const { home, env, file } = await homeWith({ opencode: '2.0.1' });
    await mkdir(join(home, '.config', 'opencode'), { recursive: true });
    await writeFile(
      file,
      JSON.stringify(
        { model: 'x/y', mcp: { service: { type: 'remote', url: 'https://acme.example.com/mcp' } } },
        null,
        2,
      ),
    );
    const listed = await runCli(['mcp', 'list'], { home, env });
    assert.match(
      listed.stderr,
      /'service' is under `mcp` of .*opencode\.jsonc, where only opencode 1 looked; opencode 2 reads `mcp\.servers`, so the client will not load it: move it with: svcctl mcp install --client opencode/,
    );
    const doctor = await runCli(['mcp', 'doctor', '--client', 'opencode'], { home, env });
    assert.equal(doctor.code, 8, doctor.stdout + doctor.stderr);
    const moved = await runCli(['mcp', 'install', '--client', 'opencode', '--mode', 'remote'], {
      home,
      env,
    });
    assert.equal(moved.code, 0, moved.stderr);
    const written = await readJson(file);
    assert.equal(written.model, 'x/y');
    assert.deepEqual(Object.keys(written.mcp), ['servers'], 'the opencode 1 entry is gone');
    assert.ok(written.mcp.servers.service);
    const removed = await runCli(['mcp', 'uninstall', '--client', 'opencode'], { home, env });
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual(
      (await readJson(file)).mcp,
      {},
      'an emptied mcp.servers goes too (opencode 1 before 1.18.25 refuses a file that has one)',
    );
  });

  const REMOTE = { type: 'remote', url: 'https://acme.example.com/mcp' };
  // --auth given, so that the only warnings these tests can see are about opencode's versions.
  const install = ['mcp', 'install', '--client', 'opencode', '--mode', 'remote', '--auth', 'password'];
  const seed = async (home: string, file: string, mcp: object): Promise<void> => {
    await mkdir(join(home, '.config', 'opencode'), { recursive: true });
    await writeFile(file, JSON.stringify({ model: 'x/y', mcp }, null, 2));
  };

  it('opencode 1.18.33 (which reads mcp.servers too, run here): an entry there is not stale, and an install moves it under mcp', async () => {
    const { home, env, file } = await homeWith({ opencode: '1.18.33' });
    await seed(home, file, { servers: { service: REMOTE } });
    const listed = await runCli(['mcp', 'list', '--json'], { home, env });
    assert.deepEqual(
      JSON.parse(listed.stdout).map((row: { name: string; stale?: unknown }) => [row.name, row.stale]),
      [['service', undefined]],
    );
    assert.equal(listed.stderr, '', 'no warning');
    const moved = await runCli(install, { home, env });
    assert.equal(moved.code, 0, moved.stderr);
    assert.deepEqual(
      Object.keys((await readJson(file)).mcp),
      ['service'],
      'moved, and the emptied mcp.servers removed',
    );
  });

  it('opencode 1.18.33 beside opencode2: the entry under mcp.servers, which both read; the one under mcp moves; uninstall empties both', async () => {
    const { home, env, file } = await homeWith({ opencode: '1.18.33', opencode2: '0.0.0-next-15747' });
    await seed(home, file, { service: REMOTE, other: { type: 'local', command: ['x'] } });
    const result = await runCli(install, { home, env });
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stderr, /warning/);
    const written = await readJson(file);
    assert.deepEqual(Object.keys(written.mcp).sort(), ['other', 'servers']);
    assert.deepEqual(Object.keys(written.mcp.servers), ['service']);
    await writeFile(file, JSON.stringify({ mcp: { service: REMOTE, servers: { service: REMOTE } } }));
    const removed = await runCli(['mcp', 'uninstall', '--client', 'opencode'], { home, env });
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual((await readJson(file)).mcp, {});
  });

  it('opencode 1.17.0 beside opencode2: no mcp.servers (opencode 1.17 would refuse the file), a warning that opencode 2 will not load it', async () => {
    const { home, env, file } = await homeWith({ opencode: '1.17.0', opencode2: '0.0.0-next-15747' });
    const result = await runCli(install, { home, env });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(Object.keys((await readJson(file)).mcp), ['service']);
    assert.match(
      result.stderr,
      /opencode 2 reads only `mcp\.servers`, not `mcp`, and `mcp\.servers` would make opencode 1 refuse the whole file \(opencode 1\.18\.25 and later read both: upgrade it and run the install again\): that version will not load 'service'/,
    );
    const listed = await runCli(['mcp', 'list'], { home, env });
    assert.match(
      listed.stderr,
      /opencode \(user\): opencode 2 reads only `mcp\.servers`, not `mcp`.*: that version will not load the entries svcctl wrote/,
    );
  });

  it('opencode 1.17.0 alone: an entry under mcp.servers is stale and breaks the file; doctor says so, an install moves it and drops the key', async () => {
    const { home, env, file } = await homeWith({ opencode: '1.17.0' });
    await seed(home, file, { servers: { service: REMOTE } });
    const doctor = await runCli(['mcp', 'doctor', '--client', 'opencode'], { home, env });
    assert.equal(doctor.code, 8, doctor.stdout + doctor.stderr);
    assert.match(
      doctor.stdout + doctor.stderr,
      /'service' is under `mcp\.servers` of .*, where only opencode 2 looked \(and opencode 1 refuses the whole file while `mcp\.servers` is in it\); opencode 1 reads `mcp`/,
    );
    const moved = await runCli(install, { home, env });
    assert.equal(moved.code, 0, moved.stderr);
    const written = await readJson(file);
    assert.deepEqual(written, { model: 'x/y', mcp: { service: { ...REMOTE, headers: written.mcp.service.headers } } });
  });
  for (const [version, servers, field, fix] of [
    [
      '1.18.33',
      (entry: object) => ({ mcp: { service: { ...entry, enabled: false } } }),
      '"enabled": false',
      'remove "enabled": false from the entry (or set "enabled": true)',
    ],
    [
      '2.0.1',
      (entry: object) => ({ mcp: { servers: { service: { ...entry, disabled: true } } } }),
      '"disabled": true',
      'remove "disabled": true from the entry',
    ],
  ] as const) {
    it(`opencode ${version}: a server switched off with ${field} fails doctor, and the fix names that version's field`, async () => {
      const { home, env, file } = await homeWith({ opencode: version });
      await mkdir(join(home, '.config', 'opencode'), { recursive: true });
      await writeFile(file, JSON.stringify(servers({ type: 'remote', url: 'https://acme.example.com/mcp' }), null, 2));
      const doctor = await runCli(['mcp', 'doctor', '--client', 'opencode'], { home, env });
      assert.equal(doctor.code, 8, doctor.stdout + doctor.stderr);
      const output = doctor.stdout + doctor.stderr;
      assert.ok(output.includes(`the client has this server disabled (${field})`), output);
      assert.ok(output.includes(`fix: ${fix}\n`), output);
    });
  }
});
