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

async function homeWith(programs: Record<string, string>): Promise<{ home: string; env: Record<string, string>; file: string }> {
  const home = await tempDir('svcctl-opencode-');
  const bin = join(home, 'bin');
  await mkdir(bin);
  for (const [name, version] of Object.entries(programs)) await writeFile(join(bin, name), `#!/bin/sh\necho '${version}'\n`, { mode: 0o755 });
  return { home, env: { ...ENV, PATH: `${bin}:${process.env.PATH}` }, file: join(home, '.config', 'opencode', 'opencode.jsonc') };
}

const readJson = async (path: string): Promise<any> => JSON.parse(await readFile(path, 'utf8'));

describe('opencode 1 and 2', () => {
  it('opencode 1.18.33 on the PATH: the entry under mcp', async () => {
    const { home, env, file } = await homeWith({ opencode: '1.18.33' });
    const result = await runCli(['mcp', 'install', '--client', 'opencode', '--mode', 'remote'], { home, env });
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
      const result = await runCli(['mcp', 'install', '--client', 'opencode', '--mode', 'remote'], { home, env });
      assert.equal(result.code, 0, result.stderr);
      const written = await readJson(file);
      assert.deepEqual(Object.keys(written.mcp), ['servers']);
      assert.deepEqual(written.mcp.servers.service, { type: 'remote', url: 'https://acme.example.com/mcp', headers: { 'X-Service-Email': '{env:SERVICE_EMAIL}', 'X-Service-Password': '{env:SERVICE_PASSWORD}' } });
      const listed = JSON.parse((await runCli(['mcp', 'list', '--json'], { home, env })).stdout);
      assert.deepEqual(listed.map((row: { client: string; stale?: unknown }) => [row.client, row.stale]), [['opencode', undefined]]);
    });
  }

  it('after an upgrade to opencode 2: an entry of opencode 1 is flagged, then moved under mcp.servers (the rest kept)', async () => {
    const { home, env, file } = await homeWith({ opencode: '2.0.1' });
    await mkdir(join(home, '.config', 'opencode'), { recursive: true });
    await writeFile(file, JSON.stringify({ model: 'x/y', mcp: { service: { type: 'remote', url: 'https://acme.example.com/mcp' } } }, null, 2));
    const listed = await runCli(['mcp', 'list'], { home, env });
    assert.match(listed.stderr, /'service' is under `mcp` of .*opencode\.jsonc, where only opencode 1 looked; opencode 2 reads `mcp\.servers`, so the client will not load it: move it with: svcctl mcp install --client opencode/);
    const doctor = await runCli(['mcp', 'doctor', '--client', 'opencode'], { home, env });
    assert.equal(doctor.code, 8, doctor.stdout + doctor.stderr);
    const moved = await runCli(['mcp', 'install', '--client', 'opencode', '--mode', 'remote'], { home, env });
    assert.equal(moved.code, 0, moved.stderr);
    const written = await readJson(file);
    assert.equal(written.model, 'x/y');
    assert.deepEqual(Object.keys(written.mcp), ['servers'], 'the opencode 1 entry is gone');
    assert.ok(written.mcp.servers.service);
    const removed = await runCli(['mcp', 'uninstall', '--client', 'opencode'], { home, env });
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual((await readJson(file)).mcp, { servers: {} });
  });
  for (const [version, servers, field, fix] of [
    ['1.18.33', (entry: object) => ({ mcp: { service: { ...entry, enabled: false } } }), '"enabled": false', 'remove "enabled": false from the entry (or set "enabled": true)'],
    ['2.0.1', (entry: object) => ({ mcp: { servers: { service: { ...entry, disabled: true } } } }), '"disabled": true', 'remove "disabled": true from the entry'],
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
