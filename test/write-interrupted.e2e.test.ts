/**
 * Interrupted and failing writes: `kill -9` at any moment of `mcp install`, `mcp uninstall` and `login --save` leaves
 * the old or the new file, never an empty or half one, and the next run cleans up what the killed one left (temp
 * file, lock). A full disk and a read-only folder are exit 7 naming the file and the cause, with the old file intact
 * and no temp or lock file left. What the next run removes, and a target that is a folder: write-interrupted.test.ts.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BIN, cleanEnv, placeFile, runCli } from './helpers/cli.js';
import { EMAIL, PASSWORD, startLoginServer, type LoginServer } from './helpers/login-server.js';
import { tempDir } from './helpers/temp-dirs.js';

const ENV = { SERVICE_BASE_URL: 'https://acme.example.com/api' };
const OLD =
  '{\n  // kept by hand\n  "mcpServers": {\n    "other": { "command": "other-server", "args": ["--flag"] }\n  }\n}\n';
const installArgs = ['mcp', 'install', '--client', 'cursor', '--name', 'svc', '--mode', 'remote'];
const uninstallArgs = ['mcp', 'uninstall', '--client', 'cursor', '--name', 'svc'];

/** Starts the CLI and SIGKILLs it after `killAfterMs`; resolves when it is gone. */
function runAndKill(args: string[], home: string, env: Record<string, string>, killAfterMs: number): Promise<void> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: home, env: cleanEnv(home, env), stdio: 'ignore' });
  const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  return new Promise((resolve) =>
    child.on('close', () => {
      clearTimeout(timer);
      resolve();
    }),
  );
}

/** What the command writes when it is not interrupted, from a home of its own. */
async function uninterrupted(args: string[], start: string): Promise<string> {
  const home = await tempDir();
  const file = await placeFile(home, '.cursor/mcp.json', start);
  const result = await runCli(args, { home, env: ENV });
  assert.equal(result.code, 0, result.stderr);
  return readFile(file, 'utf8');
}

const leftovers = async (folder: string): Promise<string[]> =>
  (await readdir(folder)).filter((name) => name.endsWith('.tmp') || name.endsWith('.lock'));

async function killRounds(
  label: string,
  args: string[],
  start: string,
  rounds: number,
): Promise<{ old: number; new: number }> {
  const expectedNew = await uninterrupted(args, start);
  assert.notEqual(expectedNew, start, 'the command changes the file');
  const seen = { old: 0, new: 0 };
  for (let round = 0; round < rounds; round += 1) {
    const home = await tempDir();
    const file = await placeFile(home, '.cursor/mcp.json', start);
    // 0–400 ms covers start-up, reading, the lock, the temp file and the rename on this machine.
    await runAndKill(args, home, ENV, Math.floor(Math.random() * 400));
    const text = await readFile(file, 'utf8');
    assert.ok(
      text === start || text === expectedNew,
      `${label} round ${round}: the file is neither old nor new:\n${text}`,
    );
    seen[text === start ? 'old' : 'new'] += 1;
    // The next run is not stopped by what the killed one left, and cleans it up.
    const next = await runCli(args, { home, env: ENV });
    assert.ok(next.code === 0, `${label} round ${round}: the next run failed: ${next.stderr}`);
    assert.equal(await readFile(file, 'utf8'), expectedNew, `${label} round ${round}: the next run's result`);
    assert.deepEqual(await leftovers(join(home, '.cursor')), [], `${label} round ${round}: temp or lock files left`);
  }
  return seen;
}

let server: LoginServer;
before(async () => {
  server = await startLoginServer();
});
after(() => server.close());

/** Mounts a small tmpfs at `dir`; false when this machine does not allow it (not root, no mount). */
function mountTmpfs(dir: string, size: string): boolean {
  return spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' }).status === 0;
}
const umount = (dir: string): void => void spawnSync('umount', [dir], { stdio: 'ignore' });
const CANNOT_MOUNT = 'mounting a tmpfs needs root and mount(8) (not available here)';

async function assertRefused(home: string, file: string, cause: RegExp): Promise<void> {
  const before = await readFile(file, 'utf8');
  const result = await runCli(installArgs, { home, env: ENV });
  assert.equal(result.code, 7, result.stderr);
  assert.ok(result.stderr.includes(file), `names the file: ${result.stderr}`);
  assert.match(result.stderr, cause);
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  assert.equal(await readFile(file, 'utf8'), before, 'the old file is intact');
  assert.deepEqual(await leftovers(join(home, '.cursor')), [], 'no temp or lock file left');
}

describe('kill -9, a full disk, a read-only folder', { concurrency: true }, () => {
  it('kill -9 at random moments of mcp install (30 times) and uninstall (20 times): always the old or the new file', async (t) => {
    const installs = await killRounds('install', installArgs, OLD, 30);
    const withEntry = await uninterrupted(installArgs, OLD);
    const uninstalls = await killRounds('uninstall', uninstallArgs, withEntry, 20);
    t.diagnostic(
      `install: old ${installs.old}, new ${installs.new}; uninstall: old ${uninstalls.old}, new ${uninstalls.new}`,
    );
  });

  it('kill -9 at random moments of login --save (10 times): credentials.json is the old or the new file', async () => {
    for (let round = 0; round < 10; round += 1) {
      const home = await tempDir();
      const file = join(home, '.config', 'svcctl', 'credentials.json');
      const old = JSON.stringify({
        version: 1,
        tokens: { 'https://other.example.com/api': { access_token: 'x.y.z', email: EMAIL } },
      });
      await mkdir(join(home, '.config', 'svcctl'), { recursive: true, mode: 0o700 });
      await writeFile(file, old, { mode: 0o600 });
      const env = { SERVICE_BASE_URL: server.baseUrl, SERVICE_EMAIL: EMAIL, SERVICE_PASSWORD: PASSWORD };
      await runAndKill(['login', '--save'], home, env, Math.floor(Math.random() * 400));
      const text = await readFile(file, 'utf8');
      if (text !== old) {
        const saved = JSON.parse(text) as { tokens: Record<string, unknown> };
        assert.deepEqual(
          Object.keys(saved.tokens).sort(),
          ['https://other.example.com/api', server.baseUrl].sort(),
          `round ${round}`,
        );
      }
      const next = await runCli(['login', '--save'], { home, env });
      assert.equal(next.code, 0, `round ${round}: ${next.stderr}`);
      assert.deepEqual(await leftovers(join(home, '.config', 'svcctl')), [], `round ${round}: temp or lock files left`);
    }
  });

  it('a full disk: exit 7 naming the file and "no space", the old file intact, nothing left behind', async (t) => {
    const home = await tempDir();
    if (!mountTmpfs(home, '64k')) return t.skip(CANNOT_MOUNT);
    try {
      const file = await placeFile(home, '.cursor/mcp.json', OLD);
      spawnSync('dd', ['if=/dev/zero', `of=${join(home, 'filler')}`, 'bs=4k'], { stdio: 'ignore' });
      await assertRefused(home, file, /no space left/);
    } finally {
      umount(home);
    }
  });

  it('a read-only folder: exit 7 naming the file and "read-only", the old file intact', async (t) => {
    const home = await tempDir();
    if (!mountTmpfs(home, '1m')) return t.skip(CANNOT_MOUNT);
    try {
      const file = await placeFile(home, '.cursor/mcp.json', OLD);
      assert.equal(spawnSync('mount', ['-o', 'remount,ro', home]).status, 0, 'remount read-only');
      await assertRefused(home, file, /read-only/);
    } finally {
      umount(home);
    }
  });
});
