/**
 * What the next run does with what an interrupted one left: temp files of a killed run (of the file and of its .bak)
 * go, a live process's stay; a target that is a folder is exit 7 with nothing written. The kills themselves (kill -9
 * at random moments) and a full or read-only disk are in write-interrupted.e2e.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { placeFile, runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const ENV = { SERVICE_BASE_URL: 'https://acme.example.com/api' };
const OLD =
  '{\n  // kept by hand\n  "mcpServers": {\n    "other": { "command": "other-server", "args": ["--flag"] }\n  }\n}\n';
const installArgs = ['mcp', 'install', '--client', 'cursor', '--name', 'svc', '--mode', 'remote'];

const leftovers = async (folder: string): Promise<string[]> =>
  (await readdir(folder)).filter((name) => name.endsWith('.tmp') || name.endsWith('.lock'));

/** A pid no process has now (searched from the top of the pid range, where pids are handed out last). */
function pidOfNoProcess(): number {
  for (let pid = 4_194_303; pid > 1; pid -= 97) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return pid;
    }
  }
  throw new Error('every pid tried belongs to a process');
}

test("temp files of a killed run, of the file and of its .bak, are removed by the next run; a live process's are kept", async () => {
  const home = await tempDir();
  await placeFile(home, '.cursor/mcp.json', OLD);
  const deadPid = pidOfNoProcess();
  const folder = join(home, '.cursor');
  const killed = [`.mcp.json.svcctl-${deadPid}-0123abcd.tmp`, `.mcp.json.bak.svcctl-${deadPid}-4567cdef.tmp`];
  // The test runner that started this file is alive (and is not this process, where svcctl runs): a temp file named
  // after it belongs to a run still at work.
  const live = `.mcp.json.bak.svcctl-${process.ppid}-89abcdef.tmp`;
  for (const name of [...killed, live]) await writeFile(join(folder, name), 'half');
  const result = await runCli(installArgs, { home, env: ENV });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(await leftovers(folder), [live]);
});

test('a target that is a folder: exit 7 naming it, nothing written', async () => {
  const home = await tempDir();
  const target = join(home, '.cursor', 'mcp.json');
  await mkdir(target, { recursive: true });
  const result = await runCli(installArgs, { home, env: ENV });
  assert.equal(result.code, 7, result.stderr);
  assert.match(result.stderr, new RegExp(`${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is a folder, not a file`));
  assert.deepEqual(await readdir(target), [], 'nothing written inside the folder');
  assert.deepEqual(await leftovers(join(home, '.cursor')), []);
});
