/**
 * `mcp uninstall --all` (issue 39.3): the files svcctl created go with their .bak and the folders it made for
 * them, however many entries a file held; what goes is listed first (URLs masked), and a terminal is asked.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { placeFile, runCli } from './helpers/cli.js';
import { ENTER, runAtTerminal } from './helpers/fake-terminal.js';
import { tempDir } from './helpers/temp-dirs.js';

const ENV = { SERVICE_BASE_URL: 'https://acme.example.com/api' };
const STAGING = { SERVICE_BASE_URL: 'https://staging.example.com/api' };
const FOUR = ['--client', 'cursor', '--client', 'vscode', '--client', 'codex', '--client', 'claude-code'];

async function run(home: string, args: string[], env: Record<string, string> = ENV, cwd?: string) {
  const result = await runCli(args, { home, env, ...(cwd ? { cwd } : {}) });
  assert.equal(result.code, 0, result.stderr);
  return result;
}

/** Every path under the folder, the state folder left out (svcctl's own records live there). */
async function pathsUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true });
  return entries.filter((path) => !path.startsWith('.local')).sort();
}

describe('mcp uninstall --all', () => {
  it('after four clients, leaves no file, no .bak and no folder that svcctl made', async () => {
    const home = await tempDir('svcctl-all-');
    await run(home, ['mcp', 'install', ...FOUR]);
    assert.ok(existsSync(join(home, '.cursor', 'mcp.json')));
    await run(home, ['mcp', 'uninstall', '--all']);
    assert.deepEqual(await pathsUnder(home), []);
  });

  it('two entries in each file (two deployments): both go, then the file, its .bak and its folders', async () => {
    const home = await tempDir('svcctl-all-');
    await run(home, ['mcp', 'install', ...FOUR]);
    await run(home, ['mcp', 'install', ...FOUR, '--name', 'service-staging'], STAGING);
    assert.ok(existsSync(join(home, '.cursor', 'mcp.json.bak')), 'the second install kept a .bak');
    const result = await run(home, ['mcp', 'uninstall', '--all']);
    assert.deepEqual(await pathsUnder(home), [], result.stderr);
  });

  it('--dry-run says the file would go and changes nothing', async () => {
    const home = await tempDir('svcctl-all-');
    await run(home, ['mcp', 'install', '--client', 'cursor']);
    await run(home, ['mcp', 'install', '--client', 'cursor', '--name', 'service-staging'], STAGING);
    const before = await readFile(join(home, '.cursor', 'mcp.json'), 'utf8');
    const result = await run(home, ['mcp', 'uninstall', '--all', '--dry-run']);
    assert.match(result.stderr, /would remove .*\.cursor\/mcp\.json: svcctl created it/);
    assert.equal(await readFile(join(home, '.cursor', 'mcp.json'), 'utf8'), before);
  });

  it('keeps a folder the user had, even when it is empty', async () => {
    const home = await tempDir('svcctl-all-');
    await mkdir(join(home, '.cursor'));
    await run(home, ['mcp', 'install', '--client', 'cursor', '--client', 'codex']);
    await run(home, ['mcp', 'uninstall', '--all']);
    assert.deepEqual(await pathsUnder(home), ['.cursor']);
  });

  it('lists every entry before it goes: client, scope, name, file, URL masked, other deployments and project entries marked', async () => {
    const home = await tempDir('svcctl-all-');
    const project = join(home, 'project');
    await mkdir(project);
    await run(home, ['mcp', 'install', '--client', 'codex']);
    await run(home, ['mcp', 'install', '--client', 'cursor', '--scope', 'project'], ENV, project);
    const handmade = {
      command: 'npx',
      args: ['-y', 'service-mcp-server'],
      env: { SERVICE_BASE_URL: 'https://me:hunter2-secret@staging.example.com/api' },
    };
    await placeFile(home, '.gemini/settings.json', JSON.stringify({ mcpServers: { handmade } }));
    const result = await run(home, ['mcp', 'uninstall', '--all'], ENV, project);
    const list = result.stderr.slice(0, result.stderr.indexOf('✓'));
    assert.match(list, /--all removes these 3 entries:/);
    assert.match(
      list,
      /codex \(user scope\): 'service' → https:\/\/acme\.example\.com\/api, in .*\.codex\/config\.toml/,
    );
    assert.match(list, /cursor \(project scope\): 'service' → .*, in .*project\/\.cursor\/mcp\.json/);
    assert.match(
      list,
      /gemini \(user scope\): 'handmade' → https:\/\/me:\*+@staging\.example\.com\/api \(other deployment\)/,
    );
    assert.doesNotMatch(result.stderr, /hunter2-secret/);
    assert.ok(!existsSync(join(project, '.cursor')), 'the project folder svcctl made is gone too');
  });

  it('at a terminal asks first: Enter (no) keeps every entry; y removes them; --yes does not ask', async () => {
    const home = await tempDir('svcctl-all-');
    await run(home, ['mcp', 'install', '--client', 'cursor']);
    const cursor = join(home, '.cursor', 'mcp.json');
    const before = await readFile(cursor, 'utf8');
    const kept = await runAtTerminal(['mcp', 'uninstall', '--all'], {
      home,
      env: ENV,
      answers: [[/Remove this entry\?/, ENTER]],
    });
    assert.equal(kept.code, 0, kept.screen);
    assert.match(kept.screen, /cursor \(user scope\): 'service'[\s\S]*cancelled: nothing was removed/);
    assert.equal(await readFile(cursor, 'utf8'), before);

    const removed = await runAtTerminal(['mcp', 'uninstall', '--all'], {
      home,
      env: ENV,
      answers: [[/Remove this entry\?/, `y${ENTER}`]],
    });
    assert.equal(removed.code, 0, removed.screen);
    assert.ok(!existsSync(cursor), removed.screen);

    await run(home, ['mcp', 'install', '--client', 'cursor']);
    const unasked = await runAtTerminal(['mcp', 'uninstall', '--all', '--yes'], { home, env: ENV });
    assert.equal(unasked.code, 0, unasked.screen);
    assert.doesNotMatch(unasked.screen, /Remove this entry\?/);
    assert.ok(!existsSync(cursor));
  });
});
