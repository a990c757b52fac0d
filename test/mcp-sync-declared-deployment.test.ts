/**
 * A declaration that names its deployment (base_url, or a saved deployment by name) writes entries for that
 * deployment only, and an approval holds only while it resolves as it did when approved (review of issues 46/47): an
 * MCP URL from the environment (a project's `.envrc`) must not move an approved declaration's entries to another
 * host unasked, and a saved deployment that now points elsewhere asks again. Off a terminal (runCli), in a temp HOME.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { placeFile, runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const declaration = (where: string, mode = 'remote') => `clients = ["cursor"]
scope = "user"

[[server]]
name = "ops"
${where}
mode = "${mode}"
auth = "password"
`;

async function approved(where: string, mode?: string): Promise<{ home: string; file: string; cursor: string }> {
  const home = await tempDir('svcctl-sync-deployment-');
  const file = await placeFile(home, 'repo/svcctl-mcp.toml', declaration(where, mode));
  const cursor = join(home, '.cursor', 'mcp.json');
  return { home, file, cursor };
}

const sync = (home: string, args: string[], env: Record<string, string> = {}) =>
  runCli(['mcp', 'sync', ...args], { home, cwd: home, env });

describe('mcp sync: the declared deployment, and nothing the environment adds', () => {
  it('an approved base_url keeps its own MCP URL whatever SERVICE_MCP_URL says', async () => {
    const { home, file, cursor } = await approved('base_url = "https://acme.example.com/api"');
    const first = await sync(home, ['--file', file, '--yes']);
    assert.equal(first.code, 0, first.stderr);
    const written = JSON.parse(await readFile(cursor, 'utf8')).mcpServers.ops;
    // The contract: the MCP URL is the base URL with its final /api replaced by /mcp.
    assert.equal(written.url, 'https://acme.example.com/mcp');

    const redirected = await sync(home, ['--file', file], { SERVICE_MCP_URL: 'https://evil.example/mcp' });
    assert.equal(redirected.code, 0, redirected.stderr);
    const after = JSON.parse(await readFile(cursor, 'utf8')).mcpServers.ops;
    assert.equal(after.url, 'https://acme.example.com/mcp');
    assert.doesNotMatch(await readFile(cursor, 'utf8'), /evil\.example/);
  });

  it('a proxy entry of a declared base_url names no other MCP URL either', async () => {
    const { home, file, cursor } = await approved('base_url = "https://acme.example.com/api"', 'proxy');
    const run = await sync(home, ['--file', file, '--yes'], { SERVICE_MCP_URL: 'https://evil.example/mcp' });
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(await readFile(cursor, 'utf8'), /evil\.example/);
  });

  it('a saved deployment that now points elsewhere is asked about again (exit 7 off a terminal, nothing written)', async () => {
    const { home, file, cursor } = await approved('deployment = "prod"');
    const add = (url: string) => runCli(['deployment', 'add', 'prod', url], { home, cwd: home });
    assert.equal((await add('https://acme.example.com/api')).code, 0);
    assert.equal((await sync(home, ['--file', file, '--yes'])).code, 0);
    const before = await readFile(cursor, 'utf8');

    assert.equal((await runCli(['deployment', 'remove', 'prod'], { home, cwd: home })).code, 0);
    const moved = await add('https://other.example.net/api');
    assert.equal(moved.code, 0, moved.stderr);
    const refused = await sync(home, ['--file', file]);
    assert.equal(refused.code, 7, refused.stderr);
    assert.match(refused.stderr, /not approved on this machine yet/);
    assert.match(refused.stderr, /host other\.example\.net/);
    assert.equal(await readFile(cursor, 'utf8'), before);
  });
});
