/**
 * Whose an entry is for `mcp sync`: svcctl's record names the file and the entry, and the entry's parsed value
 * decides, whatever a client did to the rest of its file. The rewrite below is what Claude Code 2.1.332 and Qwen
 * Code 0.24.4 do at their first start (docs/real-clients.md): new top-level keys, another indentation, keys in
 * another order; the entries' values stay the same.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { placeFile, runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const server = (name: string, extra = ''): string =>
  `[[server]]\nname = "${name}"\nbase_url = "https://acme.example.com/api"\nmode = "remote"\n${extra}`;

const declaration = (clients: string[], servers: string[]): string =>
  `clients = [${clients.map((id) => `"${id}"`).join(', ')}]\nscope = "user"\n\n${servers.join('\n')}`;

/** Approved with --yes: what is tested here is whose the entries are, not the approval before a write. */
const sync = (home: string, file: string, args: string[] = []) =>
  runCli(['mcp', 'sync', '--file', file, ...(args.includes('--check') ? args : ['--yes', ...args])], {
    home,
    cwd: home,
  });

/** As a client that loads and saves its whole file would: its own keys first, sorted servers, four spaces. */
async function rewriteAsClient(path: string): Promise<void> {
  const parsed = JSON.parse(await readFile(path, 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> };
  const reordered = (value: Record<string, unknown>) =>
    Object.fromEntries(
      Object.keys(value)
        .reverse()
        .map((key) => [key, value[key]]),
    );
  const servers = Object.fromEntries(
    Object.keys(parsed.mcpServers)
      .reverse()
      .map((name) => [name, reordered(parsed.mcpServers[name]!)]),
  );
  const rewritten = { firstStartTime: '2026-11-27T10:00:00.000Z', userID: 'abc', ...parsed, mcpServers: servers };
  await writeFile(path, `${JSON.stringify(rewritten, null, 4)}\n`);
}

describe('mcp sync: entries are svcctl’s by value', () => {
  it('a client that rewrites its file between two syncs: the second updates and removes as if it had not', async () => {
    const home = await tempDir('svcctl-own-');
    const file = await placeFile(home, 'svcctl-mcp.toml', declaration(['claude-code'], [server('ops'), server('old')]));
    assert.equal((await sync(home, file)).code, 0);
    const path = join(home, '.claude.json');
    await rewriteAsClient(path);
    assert.equal((await sync(home, file, ['--check'])).code, 0, 'a rewrite alone is no drift');

    await writeFile(file, declaration(['claude-code'], [server('ops', 'auth = "bearer"\ntoken = "static"\n')]));
    const result = await sync(home, file);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /updated 'ops' in .*; removed 'old' from /);
    const after = JSON.parse(await readFile(path, 'utf8'));
    assert.equal(after.firstStartTime, '2026-11-27T10:00:00.000Z', 'the client’s own keys stay');
    assert.deepEqual(Object.keys(after.mcpServers), ['ops']);
    assert.equal(after.mcpServers.ops.headers.Authorization, 'Bearer ${SERVICE_ACCESS_TOKEN}');
    assert.equal((await sync(home, file, ['--check'])).code, 0);
  });

  it('an entry that already holds what svcctl would write is in line, whoever wrote it: no write, no refusal', async () => {
    const home = await tempDir('svcctl-own-');
    const file = await placeFile(home, 'svcctl-mcp.toml', declaration(['cursor'], [server('ops')]));
    const elsewhere = await tempDir('svcctl-own-other-');
    const copyFile = await placeFile(elsewhere, 'svcctl-mcp.toml', declaration(['cursor'], [server('ops')]));
    // Another HOME's svcctl writes the entry; its text, moved here, was never written by this HOME's svcctl.
    assert.equal((await sync(elsewhere, copyFile)).code, 0);
    const text = await readFile(join(elsewhere, '.cursor', 'mcp.json'), 'utf8');
    const path = await placeFile(home, '.cursor/mcp.json', text.replaceAll('  ', '\t'));
    const before = await readFile(path, 'utf8');
    const result = await sync(home, file);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /nothing to change/);
    assert.equal(await readFile(path, 'utf8'), before);
    // Not svcctl's for all that: a declaration without it leaves it.
    await writeFile(file, 'clients = ["cursor"]\n');
    assert.equal((await sync(home, file)).code, 0);
    assert.equal(await readFile(path, 'utf8'), before);
  });

  it('a copy of svcctl’s entry in another file stays foreign: not updated there', async () => {
    const home = await tempDir('svcctl-own-');
    const file = await placeFile(home, 'svcctl-mcp.toml', declaration(['cursor'], [server('ops')]));
    assert.equal((await sync(home, file)).code, 0);
    // A project holding a copy of the user file: the entry svcctl wrote, byte for byte, in a file it never wrote.
    const copy = await placeFile(home, 'proj/.cursor/mcp.json', await readFile(join(home, '.cursor', 'mcp.json')));
    const before = await readFile(copy, 'utf8');
    const project = await placeFile(
      home,
      'proj/svcctl-mcp.toml',
      declaration(['cursor'], [server('ops', 'auth = "bearer"\ntoken = "static"\n')]).replace('"user"', '"project"'),
    );
    const result = await sync(home, project);
    assert.equal(result.code, 7, result.stderr);
    assert.match(result.stderr, /Cursor \(project scope\): 'ops' not synced: .*svcctl did not write it/);
    assert.equal(await readFile(copy, 'utf8'), before);
  });
});
