/**
 * Kimi CLI and Kimi Code (`--client kimi`): `mcpServers` in `~/.kimi/mcp.json` (Kimi CLI) or
 * `$KIMI_CODE_HOME`/`~/.kimi-code/mcp.json` (Kimi Code), an entry with `url` (and `headers`) or `command`, no
 * variables: the shapes as their docs show them (docs/clients-agents.md), on real files in a temp HOME.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const env = { SERVICE_BASE_URL: 'https://acme.example.com/api', SERVICE_ACCESS_TOKEN: 'tok.en' };
const remote = ['mcp', 'install', '--client', 'kimi', '--mode', 'remote', '--auth', 'bearer', '--token', 'static'];
const servers = async (file: string) =>
  (JSON.parse(await readFile(file, 'utf8')) as { mcpServers: Record<string, unknown> }).mcpServers;

describe('--client kimi', () => {
  it('Kimi CLI (~/.kimi): a url entry with the token as written, in a file only you can read', async () => {
    const home = await tempDir('svcctl-kimi-');
    await mkdir(join(home, '.kimi'));
    const r = await runCli(remote, { home, env });
    assert.equal(r.code, 0, r.stderr);
    const file = join(home, '.kimi', 'mcp.json');
    assert.deepEqual((await servers(file)).service, {
      url: 'https://acme.example.com/mcp',
      headers: { Authorization: 'Bearer tok.en' },
    });
    assert.equal((await stat(file)).mode & 0o777, 0o600);
  });

  it('Kimi Code: its own folder, and KIMI_CODE_HOME moves it; a local entry is command, args, env', async () => {
    const home = await tempDir('svcctl-kimi-');
    const kimiHome = join(home, 'kimi-home');
    await mkdir(kimiHome);
    const r = await runCli(
      ['mcp', 'install', '--client', 'kimi', '--mode', 'local', '--email', 'ann@acme.example', '--password-stdin'],
      { home, env: { ...env, KIMI_CODE_HOME: kimiHome }, input: 'pw\n' },
    );
    assert.equal(r.code, 0, r.stderr);
    const entry = (await servers(join(kimiHome, 'mcp.json'))).service as Record<string, unknown>;
    assert.equal(entry.command, 'npx');
    assert.deepEqual(entry.env, {
      SERVICE_EMAIL: 'ann@acme.example',
      SERVICE_PASSWORD: 'pw',
      SERVICE_BASE_URL: 'https://acme.example.com/api',
    });
    assert.equal(entry.url, undefined);
  });

  it('with neither folder, a new install goes to Kimi Code', async () => {
    const home = await tempDir('svcctl-kimi-');
    const r = await runCli(remote, { home, env });
    assert.equal(r.code, 0, r.stderr);
    assert.ok((await servers(join(home, '.kimi-code', 'mcp.json'))).service);
  });
});
