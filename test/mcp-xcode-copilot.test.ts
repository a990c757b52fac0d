/**
 * GitHub Copilot for Xcode (`--client xcode-copilot`): `servers` in `~/.config/github-copilot/xcode/mcp.json`, stdio
 * entries `{type: "stdio", command, args, env}` as the app's own registry install writes them
 * (MCPRegistryInstallation.swift; docs/clients-editors.md), on real files in a temp HOME.
 */
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const env = { SERVICE_BASE_URL: 'https://acme.example.com/api' };
const local = ['mcp', 'install', '--client', 'xcode-copilot', '--email', 'ann@acme.example', '--password-stdin'];

describe('--client xcode-copilot', () => {
  it('a local entry under servers, values as written, the file 0600', async () => {
    const home = await tempDir('svcctl-xcode-');
    const r = await runCli([...local, '--mode', 'local'], { home, env, input: 'pw\n' });
    assert.equal(r.code, 0, r.stderr);
    const file = join(home, '.config', 'github-copilot', 'xcode', 'mcp.json');
    const entry = (JSON.parse(await readFile(file, 'utf8')) as { servers: Record<string, Record<string, unknown>> })
      .servers.service!;
    assert.equal(entry.type, 'stdio');
    assert.equal(entry.command, 'npx');
    assert.deepEqual(entry.env, {
      SERVICE_EMAIL: 'ann@acme.example',
      SERVICE_PASSWORD: 'pw',
      SERVICE_BASE_URL: 'https://acme.example.com/api',
    });
    assert.equal((await stat(file)).mode & 0o777, 0o600);
  });

  it('--mode remote is exit 2: its headers live under requestInit, which svcctl does not write; proxy is offered', async () => {
    const home = await tempDir('svcctl-xcode-');
    const r = await runCli([...local, '--mode', 'remote'], { home, env, input: 'pw\n' });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /requestInit\.headers/);
    assert.match(r.stderr, /--mode proxy/);
  });
});
