/**
 * The sandbox started again, as people do it (issue 49, items 4 and 5), in real bash processes with the built CLI on
 * PATH: the README's `eval "$(svcctl dev --detach --format sh)"` in a second terminal finds the sandbox of the first
 * and hands out its variables, so either terminal's `svcctl_dev_stop` stops the one that runs and none is left
 * behind; and a restart keeps the webhook's ingest token and HMAC secret, so the files the cron and systemd recipes
 * read (docs/events.md) still work after it, until `--fresh`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BIN, cleanEnv, runCli } from './helpers/cli.js';
import { pollUntil } from './helpers/poll.js';
import { isRunning } from './helpers/processes.js';
import { tempDir } from './helpers/temp-dirs.js';

const started = new Set<number>();
after(() => {
  for (const pid of started) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
});

/** A HOME with the built CLI on PATH as `svcctl`, and a working folder apart from it. */
async function place(): Promise<{ home: string; work: string; env: NodeJS.ProcessEnv }> {
  const home = await tempDir('svcctl-dev-again-');
  const work = join(home, 'project');
  const bin = join(home, 'bin');
  await mkdir(work);
  await mkdir(bin);
  await symlink(BIN, join(bin, 'svcctl'));
  return { home, work, env: cleanEnv(home, { PATH: `${bin}:${process.env.PATH ?? ''}` }) };
}

/** One terminal: a bash process running `lines`; every `pid N` it prints is ended after the file. */
function terminal(lines: string[], cwd: string, env: NodeJS.ProcessEnv): { stdout: string; stderr: string } {
  const { stdout, stderr } = spawnSync('bash', ['--norc', '--noprofile', '-c', lines.join('\n')], {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const [, pid] of stdout.matchAll(/^pid (\d+)$/gm)) started.add(Number(pid));
  return { stdout, stderr };
}

const valueOf = (stdout: string, name: string): string => new RegExp(`^${name} (\\S+)$`, 'm').exec(stdout)?.[1] ?? '';
const gone = (pid: number): Promise<boolean> =>
  pollUntil(`pid ${pid} ends`, () => !isRunning(pid), { withinMs: 10_000, everyMs: 50 }).catch(() => false);

describe('svcctl dev --detach started again', { concurrency: true }, () => {
  it('a second terminal gets the running sandbox and its variables; its stop function stops the only one', async () => {
    const { home, work, env } = await place();
    const load = 'eval "$(svcctl dev --detach --format sh)"';
    const show = ['echo "pid $SVCCTL_DEV_PID"', 'echo "url $SERVICE_BASE_URL"', 'echo "token $SERVICE_INGEST_TOKEN"'];
    const first = terminal([load, ...show], work, env);
    const pid = Number(valueOf(first.stdout, 'pid'));
    assert.ok(pid > 0 && isRunning(pid), `the first sandbox runs\n${first.stdout}${first.stderr}`);
    const lastPort = join(home, '.local', 'state', 'svcctl', 'sandbox', 'last-port');
    const portBefore = spawnSync('cat', [lastPort], { encoding: 'utf8' }).stdout;

    const second = terminal(
      [load, ...show, 'svcctl event send --title "from the second terminal" && echo sent'],
      work,
      env,
    );
    assert.equal(valueOf(second.stdout, 'pid'), String(pid), `the same sandbox\n${second.stderr}`);
    assert.equal(valueOf(second.stdout, 'url'), valueOf(first.stdout, 'url'));
    assert.equal(valueOf(second.stdout, 'token'), valueOf(first.stdout, 'token'));
    assert.match(second.stdout, /^sent$/m, second.stderr);
    assert.match(
      second.stderr,
      new RegExp(`a sandbox of yours already runs at \\S+ in the background \\(pid ${pid}\\)`),
    );
    assert.equal(spawnSync('cat', [lastPort], { encoding: 'utf8' }).stdout, portBefore, 'last-port did not move');

    // Another sandbox asked for while this one runs: refused, naming how to stop the one that runs.
    const other = await runCli(['dev', '--detach', '--user', 'bob@example.com'], { home, cwd: work });
    assert.equal(other.code, 2, other.stderr);
    assert.match(
      other.stderr,
      new RegExp(`already runs in the background at \\S+ \\(pid ${pid}\\), started with other options`),
    );
    assert.match(other.stderr, new RegExp(`kill ${pid}`));

    // The second terminal's stop function stops the sandbox both terminals use: nothing is left running.
    terminal([load, 'svcctl_dev_stop'], work, env);
    assert.ok(await gone(pid), `the sandbox ${pid} is stopped`);
    // Stopped, it is not handed out again: the next start is a new sandbox.
    const third = terminal([load, ...show, 'svcctl_dev_stop'], work, env);
    assert.notEqual(valueOf(third.stdout, 'pid'), String(pid), third.stderr);
    assert.ok(await gone(Number(valueOf(third.stdout, 'pid'))));
  });

  it("a restart keeps the webhook's ingest token and HMAC secret: the recipes' secret files still work; --fresh makes new ones", async () => {
    const { home, work, env } = await place();
    const secrets = join(home, 'etc-svcctl');
    // As docs/events.md's cron and systemd recipes keep them: files of the job's user, mode 0600.
    const keep = [
      `mkdir -p ${secrets}`,
      `umask 077; printf %s "$SERVICE_INGEST_TOKEN" >${secrets}/ingest-token; printf %s "$SERVICE_HMAC_SECRET" >${secrets}/hmac-secret`,
    ];
    const send = (title: string): string =>
      `env -u SERVICE_INGEST_TOKEN -u SERVICE_HMAC_SECRET svcctl event send --token-file ${secrets}/ingest-token --hmac-secret-file ${secrets}/hmac-secret --title "${title}" && echo "sent ${title}"`;
    const load = (flags = ''): string => `eval "$(svcctl dev --detach --format sh${flags})"`;
    const run = terminal(
      [
        load(),
        'echo "pid $SVCCTL_DEV_PID"',
        ...keep,
        send('before'),
        'svcctl_dev_stop',
        load(),
        'echo "pid $SVCCTL_DEV_PID"',
        send('after-restart'),
        'svcctl_dev_stop',
        load(' --fresh'),
        'echo "pid $SVCCTL_DEV_PID"',
        send('after-fresh'),
        'echo "fresh token $SERVICE_INGEST_TOKEN"',
        'svcctl_dev_stop',
      ],
      work,
      env,
    );
    assert.match(run.stdout, /^sent before$/m, run.stderr);
    assert.match(run.stdout, /^sent after-restart$/m, run.stderr);
    // --fresh: the old files are refused (401) until they are written again.
    assert.doesNotMatch(run.stdout, /^sent after-fresh$/m);
    assert.match(run.stderr, /401/);
    const kept = join(home, '.local', 'state', 'svcctl', 'sandbox', 'webhook-secrets.json');
    assert.equal(statSync(kept).mode & 0o777, 0o600);
    for (const [, pid] of run.stdout.matchAll(/^pid (\d+)$/gm)) assert.ok(await gone(Number(pid)));
  });
});
