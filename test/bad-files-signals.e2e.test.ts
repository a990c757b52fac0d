/**
 * A FIFO where svcctl expects its own file never holds it (issue 47): `config.toml` and `credentials.json` that are
 * named pipes without a writer are refused at once, exit 7, naming the file. And SIGTERM always ends svcctl, also
 * while it waits for the writer of a pipe given as a secret file (an open that Node's exit would otherwise wait for).
 * Spawned: a hang of the whole process, and the signal, are the point.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BIN, cleanEnv, spawnCli } from './helpers/cli.js';
import { pollUntil } from './helpers/poll.js';
import { tempDir } from './helpers/temp-dirs.js';

async function fifoAt(home: string, ...parts: string[]): Promise<string> {
  const path = join(home, ...parts);
  await mkdir(join(path, '..'), { recursive: true, mode: 0o700 });
  execFileSync('mkfifo', ['-m', '600', path]);
  return path;
}

describe('FIFOs as svcctl own files', () => {
  it('config.toml as a FIFO: exit 7 naming it, no wait for a writer', async () => {
    const home = await tempDir('svcctl-fifo-');
    const fifo = await fifoAt(home, '.config', 'svcctl', 'config.toml');
    const result = await spawnCli(['deployment', 'list'], { home, timeoutMs: 15_000 });
    assert.equal(result.timedOut, false, 'svcctl waited on the FIFO');
    assert.equal(result.code, 7, result.stderr);
    assert.ok(result.stderr.includes(`${fifo} is a named pipe (FIFO), not a regular file`), result.stderr);
  });

  it('credentials.json as a FIFO: exit 7 naming it, no wait for a writer', async () => {
    const home = await tempDir('svcctl-fifo-');
    const fifo = await fifoAt(home, '.config', 'svcctl', 'credentials.json');
    const env = { SERVICE_BASE_URL: 'https://acme.example.com/api' };
    const result = await spawnCli(['token'], { home, env, timeoutMs: 15_000 });
    assert.equal(result.timedOut, false, 'svcctl waited on the FIFO');
    assert.equal(result.code, 7, result.stderr);
    assert.ok(result.stderr.includes(fifo), result.stderr);
    assert.match(result.stderr, /named pipe \(FIFO\)|not a regular file/);
    assert.doesNotMatch(result.stderr, /internal error/);
  });
});

// A thread of `pid` waiting in a FIFO's open for the other end (Linux's name for that wait, in /proc).
async function waitsForWriter(pid: number): Promise<boolean> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  const waits = await Promise.all(
    tasks.map((task) => readFile(`/proc/${pid}/task/${task}/wchan`, 'utf8').catch(() => '')),
  );
  return waits.includes('wait_for_partner');
}

describe('SIGTERM', () => {
  it('ends svcctl while it waits for the writer of a FIFO given as --hmac-secret-file', {
    skip: process.platform !== 'linux' && 'the wait is seen in /proc',
  }, async () => {
    const home = await tempDir('svcctl-fifo-');
    const fifo = await fifoAt(home, 'secret.fifo');
    const child = spawn(process.execPath, [BIN, 'event', 'sign', '-', '--hmac-secret-file', fifo], {
      cwd: home,
      env: cleanEnv(home),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const ended = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('close', (code, signal) => resolve([code, signal])),
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await pollUntil("svcctl waits in the FIFO's open", () => waitsForWriter(child.pid!), { withinMs: 15_000 });
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const [code, signal] = await ended;
    clearTimeout(killer);
    assert.notEqual(signal, 'SIGKILL', `SIGTERM did not end svcctl: ${stderr}`);
    // Ended by the signal itself (a shell sees 143, as for exit 143).
    assert.ok(signal === 'SIGTERM' || code === 143, `code ${code}, signal ${signal}: ${stderr}`);
    assert.match(stderr, /interrupted \(SIGTERM\)/);
  });
});
