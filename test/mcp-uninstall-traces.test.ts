/**
 * What `mcp uninstall` prints and leaves (issue 49, item 9), on real files in a temp HOME: a `--secrets prompt`
 * entry takes VS Code's inputs it added with it (and the file svcctl created); `uninstall --all` names no backup it
 * removes again before it ends; after `--all`, svcctl's empty records and doctor's runner folder are gone.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT, runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const ENV = {
  SERVICE_MCP_URL: 'http://127.0.0.1:9/mcp',
  SERVICE_BASE_URL: 'http://127.0.0.1:9/api',
  SERVICE_EMAIL: 'ops@example.com',
  SERVICE_PASSWORD: 'traces-pw-3141',
};
const vscodeFile = (home: string): string => join(home, '.config', 'Code', 'User', 'mcp.json');

async function svcctl(home: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  const result = await runCli(args, { home, env: ENV });
  assert.equal(result.code, 0, `${args.join(' ')}\n${result.stderr}`);
  return result;
}

const PROMPT_INSTALL = [
  'mcp',
  'install',
  '--client',
  'vscode',
  '--mode',
  'remote',
  '--secrets',
  'prompt',
  '--auth',
  'password',
];

describe('mcp uninstall leaves no trace of what svcctl added', () => {
  it('a --secrets prompt entry takes the VS Code inputs it added, and then the file svcctl created', async () => {
    const home = await tempDir('svcctl-traces-');
    await svcctl(home, PROMPT_INSTALL);
    assert.equal(JSON.parse(await readFile(vscodeFile(home), 'utf8')).inputs.length, 2);
    const removed = await svcctl(home, ['mcp', 'uninstall', '--client', 'vscode']);
    assert.match(removed.stderr, /removed \S+mcp\.json: svcctl created it and nothing else was left in it/);
    assert.equal(existsSync(vscodeFile(home)), false);
  });

  it("the user's own inputs, and an input another entry still uses, stay", async () => {
    const home = await tempDir('svcctl-traces-');
    const mine = { type: 'promptString', id: 'my-token', description: 'mine' };
    const file = vscodeFile(home);
    await svcctl(home, PROMPT_INSTALL);
    const document = JSON.parse(await readFile(file, 'utf8'));
    document.inputs.push(mine);
    // The user's own server asks for the same email.
    document.servers.theirs = {
      type: 'http',
      url: 'http://127.0.0.1:9/x',
      headers: { 'X-Who': '${input:service-email}' },
    };
    await writeFile(file, JSON.stringify(document, null, 2));
    await svcctl(home, ['mcp', 'uninstall', '--client', 'vscode']);
    const left = JSON.parse(await readFile(file, 'utf8'));
    assert.deepEqual(Object.keys(left.servers), ['theirs']);
    assert.deepEqual(
      left.inputs.map((input: { id: string }) => input.id),
      ['service-email', 'my-token'],
    );
  });

  it('uninstall --all: every backup line names a file that is there; svcctl’s empty records and runner folder go', async () => {
    const home = await tempDir('svcctl-traces-');
    for (const extra of [[], ['--name', 'two']])
      await svcctl(home, ['mcp', 'install', '--client', 'cursor', '--mode', 'remote', '--auth', 'password', ...extra]);
    // A local entry doctor runs: doctor makes its runner folder in svcctl's state folder.
    const server = join(ROOT, 'test', 'fixtures', 'fake-mcp-server');
    await svcctl(home, ['mcp', 'install', '--client', 'gemini', '--package', server]);
    await svcctl(home, ['mcp', 'doctor', '--client', 'gemini']);
    const state = join(home, '.local', 'state', 'svcctl');
    for (const trace of ['created-files.json', 'written-entries.json', 'runner'])
      assert.ok(existsSync(join(state, trace)), `${trace} is there before`);

    const all = await svcctl(home, ['mcp', 'uninstall', '--all']);
    const backups = [...all.stderr.matchAll(/^ {2}backup: (.+)$/gm)].map((match) => match[1]!);
    for (const backup of backups) assert.ok(existsSync(backup), `named, but gone: ${backup}\n${all.stderr}`);
    assert.match(all.stderr, /removed \S+\.cursor\/mcp\.json and \S+mcp\.json\.bak: svcctl created it/);
    for (const trace of ['created-files.json', 'written-entries.json', 'runner'])
      assert.equal(existsSync(join(state, trace)), false, `${trace} is left after --all`);
  });
});
