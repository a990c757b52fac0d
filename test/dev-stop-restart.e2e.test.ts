/**
 * The sandbox's journey through real shells: `svcctl_dev_stop`, defined by `dev --detach --format sh|fish`, stops the
 * background sandbox and unsets every variable it set (bash, dash, zsh and fish, as installed); a restart takes the
 * port of the last run again, so events spooled while it was down flush to it; when that port is taken it takes
 * another and says so; and its events file lives in svcctl's state folder, not in the folder it was started in.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, symlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BIN, cleanEnv, runCli } from './helpers/cli.js';
import { pollUntil } from './helpers/poll.js';
import { tempDir } from './helpers/temp-dirs.js';
import { isRunning } from './helpers/processes.js';
import { formatReady } from '../src/sandbox/ready-output.js';

const started = new Set<number>();
const alive = isRunning;
after(() => {
  for (const pid of started) if (alive(pid)) process.kill(pid, 'SIGKILL');
});

const installed = (shell: string): boolean => spawnSync(shell, ['-c', 'exit 0']).status === 0;
const SHELLS = [
  {
    shell: 'bash',
    args: ['--norc', '--noprofile', '-c'],
    format: 'sh',
    load: 'eval "$(svcctl dev --detach --format sh)"',
  },
  { shell: 'dash', args: ['-c'], format: 'sh', load: 'eval "$(svcctl dev --detach --format sh)"' },
  { shell: 'zsh', args: ['-f', '-c'], format: 'sh', load: 'eval "$(svcctl dev --detach --format sh)"' },
  { shell: 'fish', args: ['--no-config', '-c'], format: 'fish', load: 'svcctl dev --detach --format fish | source' },
];

/** A HOME, and a working folder apart from it, with the built CLI on PATH as `svcctl` (as `npm link` puts it). */
async function place(): Promise<{ home: string; work: string; env: NodeJS.ProcessEnv }> {
  const home = await tempDir('svcctl-dev-journey-');
  const work = join(home, 'project');
  const bin = join(home, 'bin');
  await mkdir(work);
  await mkdir(bin);
  await symlink(BIN, join(bin, 'svcctl'));
  return { home, work, env: cleanEnv(home, { PATH: `${bin}:${process.env.PATH ?? ''}` }) };
}

/** stdout whatever the shell's status, and every sandbox it started (a line `pid N`) is ended after the file. */
function run(shell: string, args: string[], script: string, cwd: string, env: NodeJS.ProcessEnv): string {
  const { stdout } = spawnSync(shell, [...args, script], {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const [, pid] of stdout.matchAll(/^pid (\d+)$/gm)) started.add(Number(pid));
  return stdout;
}

async function gone(pid: number): Promise<boolean> {
  return pollUntil(`pid ${pid} ends`, () => !alive(pid), { withinMs: 10_000, everyMs: 50 }).catch(() => false);
}

describe('svcctl_dev_stop in real shells', { concurrency: true }, () => {
  for (const { shell, args, format, load } of SHELLS) {
    it(`${shell}: stops the sandbox and unsets every variable it set, then itself`, {
      skip: !installed(shell) && `${shell} is not installed`,
    }, async () => {
      const { work, env } = await place();
      const names = [
        'SERVICE_BASE_URL',
        'SERVICE_PASSWORD',
        'SERVICE_INGEST_TOKEN',
        'SERVICE_HMAC_SECRET',
        'SERVICE_ACCESS_TOKEN',
        'SVC_ACCESS_TOKEN',
        'SVCCTL_DEV_PID',
      ];
      // Set before, and not by the sandbox (its webhook has a secret, so SVC_HMAC_SECRET is left alone): kept.
      const own = 'SVC_HMAC_SECRET';
      const report =
        format === 'fish'
          ? [...names, own].map((name) => `set -q ${name}; and echo "${name} set"; or echo "${name} unset"`)
          : [...names, own].map((name) => `[ -n "\${${name}+x}" ] && echo "${name} set" || echo "${name} unset"`);
      const hasFunction =
        format === 'fish'
          ? 'functions -q svcctl_dev_stop; and echo function; or echo no-function'
          : 'command -v svcctl_dev_stop >/dev/null && echo function || echo no-function';
      const script = [
        load,
        'echo "pid $SVCCTL_DEV_PID"',
        'svcctl event send --title "from the shell" >/dev/null && echo sent',
        'svcctl_dev_stop',
        ...report,
        hasFunction,
      ].join('\n');
      const out = run(shell, args, script, work, { ...env, SVC_ACCESS_TOKEN: 'left over', [own]: "the user's own" });
      const pid = Number(/^pid (\d+)$/m.exec(out)?.[1]);
      // Without a pid, alive() below is false for any sandbox: the check would pass unchecked.
      assert.ok(Number.isInteger(pid) && pid > 0, `${shell}: the sandbox's pid\n${out}`);
      assert.match(out, /^sent$/m, out);
      for (const name of names) assert.match(out, new RegExp(`^${name} unset$`, 'm'), `${shell}: ${name}\n${out}`);
      assert.match(out, /^no-function$/m);
      // The function waits for the process to end, so it is gone already when the next line runs.
      assert.equal(alive(pid), false, `${shell}: the sandbox ${pid} is stopped`);
    });
  }
});

describe('svcctl_dev_stop and a process nobody has reaped yet', () => {
  it('returns once the sandbox has exited, even while its parent has not reaped it (a zombie holds no port)', async () => {
    // A parent that never waits: the shell becomes `sleep`, and its exited child stays a zombie until it ends.
    const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const said = await new Promise<string>((resolve) =>
        parent.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))),
      );
      const pid = Number(said.trim());
      assert.ok(Number.isInteger(pid) && pid > 0, `the zombie's pid: ${said}`);
      await pollUntil(`pid ${pid} is a zombie`, () => !alive(pid), { withinMs: 5000 });
      const ready = { base_url: 'http://127.0.0.1:9/api', mcp_url: 'http://127.0.0.1:9/mcp', users: [], webhooks: [] };
      for (const [shell, format] of [
        ['bash', 'sh'],
        ['dash', 'sh'],
        ['fish', 'fish'],
      ] as const) {
        if (!installed(shell)) continue;
        const lines = formatReady(ready, format, pid);
        // The function's own wait is 5 s; a bound below it shows it did not wait for the reaping.
        const ran = spawnSync(shell, ['-c', `${lines}\nsvcctl_dev_stop\necho stopped`], {
          encoding: 'utf8',
          timeout: 3000,
        });
        assert.equal(ran.signal, null, `${shell}: svcctl_dev_stop still waited for a zombie after 3 s`);
        assert.match(ran.stdout, /^stopped$/m, ran.stderr);
      }
    } finally {
      parent.kill('SIGKILL');
    }
  });
});

describe('a restart of the sandbox', { concurrency: true }, () => {
  it('takes the port of the last run: events spooled while it was down flush to it; its events file is not in the working folder', async () => {
    const { home, work, env } = await place();
    // A script with its own settings, from the first run: while the sandbox is down its events are spooled.
    const sendWhileDown = (title: string, stderr: string): string =>
      `SERVICE_BASE_URL=$url SERVICE_INGEST_TOKEN=$token SERVICE_HMAC_SECRET=$secret svcctl event send --spool --title "${title}" >/dev/null 2>${stderr} && echo spooled`;
    const script = [
      'eval "$(svcctl dev --detach --format sh)"',
      'echo "first $SERVICE_BASE_URL"',
      'echo "pid $SVCCTL_DEV_PID"',
      'url=$SERVICE_BASE_URL token=$SERVICE_INGEST_TOKEN secret=$SERVICE_HMAC_SECRET',
      'svcctl_dev_stop',
      sendWhileDown('while down 1', '"$HOME/send.err"'),
      sendWhileDown('while down 2', '/dev/null'),
      'eval "$(svcctl dev --detach --format sh 2>"$HOME/restart.err")"',
      'echo "second $SERVICE_BASE_URL"',
      'echo "pid $SVCCTL_DEV_PID"',
      'svcctl event flush 2>"$HOME/flush.err" && echo flushed',
      'svcctl_dev_stop',
    ].join('\n');
    const out = run('bash', ['--norc', '--noprofile', '-c'], script, work, env);
    const first = /^first (\S+)$/m.exec(out)?.[1];
    assert.match(first ?? '', /^http:\/\/127\.0\.0\.1:\d+\/api$/, out);
    assert.equal(/^second (\S+)$/m.exec(out)?.[1], first, 'the same URL again');
    assert.equal(out.match(/^spooled$/gm)?.length, 2, out);
    const sendErr = await readFile(join(home, 'send.err'), 'utf8');
    assert.match(
      sendErr,
      new RegExp(`no sandbox or service is listening at ${new URL(first!).origin.replace(/\./g, '\\.')}`),
    );
    assert.match(out, /^flushed$/m, await readFile(join(home, 'flush.err'), 'utf8'));
    const port = new URL(first!).port;
    const eventsFile = join(home, '.local', 'state', 'svcctl', 'sandbox', `events-${port}.ndjson`);
    assert.match(
      await readFile(join(home, 'restart.err'), 'utf8'),
      new RegExp(`events file: ${eventsFile.replace(/\./g, '\\.')}`),
    );
    const titles = (await readFile(eventsFile, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { event: { title: string } }).event.title)
      .sort();
    assert.deepEqual(titles, ['while down 1', 'while down 2']);
    assert.deepEqual(readdirSync(work), [], 'nothing written into the working folder');
    assert.equal(existsSync(join(home, 'events.ndjson')), false);
  });

  it('when the port of the last run is taken, takes another and says so; --port still chooses', async () => {
    const home = await tempDir('svcctl-dev-journey-');
    const first = await runCli(['dev', '--detach'], { home });
    assert.equal(first.code, 0, first.stderr);
    const firstReady = JSON.parse(first.stdout) as { base_url: string; pid: number };
    started.add(firstReady.pid);
    process.kill(firstReady.pid, 'SIGTERM');
    assert.ok(await gone(firstReady.pid));
    const port = Number(new URL(firstReady.base_url).port);
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      const second = await runCli(['dev', '--detach'], { home });
      assert.equal(second.code, 0, second.stderr);
      const secondReady = JSON.parse(second.stdout) as { base_url: string; pid: number };
      started.add(secondReady.pid);
      assert.notEqual(new URL(secondReady.base_url).port, String(port));
      assert.match(
        second.stderr,
        new RegExp(`port ${port}, the one it had last time, is taken: it listens on \\d+ instead`),
      );
      process.kill(secondReady.pid, 'SIGTERM');
      assert.ok(await gone(secondReady.pid));
      // A port given is that port: taken, it is the usage error it always was.
      const given = await runCli(['dev', '--detach', '--port', String(port)], { home });
      assert.equal(given.code, 2, given.stderr);
      assert.match(given.stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
    } finally {
      blocker.close();
    }
  });
});
