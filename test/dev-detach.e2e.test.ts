/**
 * `svcctl dev --detach`: the sandbox keeps running in the background after
 * svcctl returns, its ready line (with the pid) or shell commands on stdout,
 * its request log in --log-file or nowhere, never in the caller's output;
 * `kill PID` stops it cleanly. --format sh is evaluated by real shells.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BIN, cleanEnv, makeTempDir, runCli } from './helpers/cli.js';
import { httpRequest } from './helpers/dev-sandbox.js';
import { formatReady } from '../src/dev/ready-output.js';

const started: number[] = [];
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
async function gone(pid: number): Promise<boolean> {
  for (let waited = 0; waited < 10_000; waited += 50) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}
after(() => {
  for (const pid of started) if (alive(pid)) process.kill(pid, 'SIGKILL');
});

const REQUEST_LOG_LINE = /^\d{4}-\d\d-\d\dT[\d:.]+Z (GET|POST|DELETE) \//m;

describe('svcctl dev --detach', () => {
  it('returns once the sandbox is ready; the sandbox keeps serving; kill PID stops it with its events file flushed', async () => {
    const home = await makeTempDir('svcctl-detach-');
    const result = await runCli(['dev', '--detach', '--events-file', 'events.ndjson'], { home });
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trim().split('\n');
    assert.equal(lines.length, 1, 'stdout holds the ready line only');
    const ready = JSON.parse(lines[0]!) as {
      base_url: string;
      pid: number;
      users: Array<{ email: string; password: string }>;
      webhooks: Array<{ ingest_token: string; hmac_secret: string }>;
    };
    started.push(ready.pid);
    assert.ok(Number.isInteger(ready.pid) && alive(ready.pid), 'the sandbox process runs on after svcctl returned');
    assert.match(result.stderr, new RegExp(`stop it with: kill ${ready.pid}`));
    const user = ready.users[0]!;
    const login = await httpRequest(`${ready.base_url}/v1/user/login`, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    assert.equal(login.status, 200, 'the background sandbox answers');
    const sent = await runCli(['event', 'send', '--title', 'from the background test'], {
      home,
      env: {
        SERVICE_BASE_URL: ready.base_url,
        SERVICE_INGEST_TOKEN: ready.webhooks[0]!.ingest_token,
        SERVICE_HMAC_SECRET: ready.webhooks[0]!.hmac_secret,
      },
    });
    assert.equal(sent.code, 0, sent.stderr);
    process.kill(ready.pid, 'SIGTERM');
    assert.ok(await gone(ready.pid), 'SIGTERM stops the background sandbox');
    const stored = (await readFile(join(home, 'events.ndjson'), 'utf8')).trim().split('\n');
    assert.equal(stored.length, 1);
    assert.equal((JSON.parse(stored[0]!) as { event: { id: string } }).event.id, sent.stdout.trim());
  });

  it('its request log goes to --log-file (0600), never to the output of the svcctl that started it', async () => {
    const home = await makeTempDir('svcctl-detach-');
    const result = await runCli(['dev', '--detach', '--log-file', 'sandbox.log'], { home });
    assert.equal(result.code, 0, result.stderr);
    const ready = JSON.parse(result.stdout) as { base_url: string; pid: number };
    started.push(ready.pid);
    assert.equal((await httpRequest(`${ready.base_url}/v1/nothing-here`)).status, 404);
    process.kill(ready.pid, 'SIGTERM');
    assert.ok(await gone(ready.pid));
    const log = await readFile(join(home, 'sandbox.log'), 'utf8');
    assert.match(log, /^\d{4}-\d\d-\d\dT[\d:.]+Z GET \/api\/v1\/nothing-here 404 /m);
    assert.match(log, /stopping \(SIGTERM\)…\nstopped\n$/);
    const { statSync } = await import('node:fs');
    assert.equal(statSync(join(home, 'sandbox.log')).mode & 0o777, 0o600);
    assert.doesNotMatch(result.stderr, REQUEST_LOG_LINE);
  });

  it('--json with --format sh is a usage error, before anything starts', async () => {
    const result = await runCli(['--json', 'dev', '--detach', '--format', 'sh']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /error: --json and --format sh ask for two forms of the ready line/);
    assert.equal(result.stdout, '');
  });

  it('a sandbox that cannot start: its error and exit code, nothing on stdout', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await runCli(['dev', '--detach', '--port', String(port)]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, new RegExp(`error: port ${port} on 127\\.0\\.0\\.1 is already in use\\nhint: `));
      assert.equal(result.stdout, '');
    } finally {
      blocker.close();
    }
  });

  it('--format sh: bash and dash set the variables to the exact values, quotes and all; svcctl then works against it', async () => {
    const home = await makeTempDir('svcctl-detach-');
    const password = `it's $HOME \`id\` \\ "x" !`;
    const env = cleanEnv(home);
    const shells = ['bash', 'dash'].filter((shell) => spawnSync(shell, ['-c', 'true']).status === 0);
    assert.ok(shells.includes('bash'));
    for (const shell of shells) {
      const script = [
        `eval "$("${process.execPath}" "${BIN}" dev --detach --format sh --user 'ops@example.com:${password.replace(/'/g, `'\\''`)}' --webhook ci)"`,
        'printf "%s\\n" "$SVCCTL_DEV_PID" "$SERVICE_EMAIL" "$SERVICE_PASSWORD" "[$SERVICE_HMAC_SECRET]" "[$SERVICE_ACCESS_TOKEN]" "[$SVC_HMAC_SECRET]"',
        `"${process.execPath}" "${BIN}" login >/dev/null && echo login-ok`,
        `"${process.execPath}" "${BIN}" event send --title unsigned >/dev/null && echo send-ok`,
        'kill "$SVCCTL_DEV_PID"',
      ].join('\n');
      const out = execFileSync(shell, ['-c', script], {
        cwd: home,
        env: { ...env, SERVICE_ACCESS_TOKEN: 'stale', SVC_HMAC_SECRET: 'stale' },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const [pid, email, shown, secret, token, legacySecret, loginOk, sendOk] = out.trim().split('\n');
      started.push(Number(pid));
      assert.equal(email, 'ops@example.com', shell);
      assert.equal(shown, password, `${shell} reads the password as given`);
      assert.equal(secret, '[]', 'a webhook without a secret empties SERVICE_HMAC_SECRET');
      assert.equal(token, '[]', 'an access token of another deployment is emptied');
      assert.equal(legacySecret, '[]', 'and so is its legacy SVC_ name');
      assert.equal(loginOk, 'login-ok', `${shell}: svcctl logs in with the variables`);
      assert.equal(sendOk, 'send-ok', `${shell}: svcctl sends an event with the variables`);
      assert.ok(await gone(Number(pid)), 'kill "$SVCCTL_DEV_PID" stops it');
    }
  });
});

describe('the ready line as shell commands (formatReady)', () => {
  const ready = {
    base_url: 'http://127.0.0.1:1234/api',
    mcp_url: 'http://127.0.0.1:1234/mcp',
    users: [{ email: 'a@example.com', password: `p'q\\r` }],
    webhooks: [{ name: 'demo', ingest_token: 'ing_1', hmac_secret: null }],
  };

  it('fish: single quotes in which only \\ and \' are escapes (fish docs, "Quotes")', () => {
    const text = formatReady(ready, 'fish', 42);
    assert.ok(text.includes(`set -gx SERVICE_PASSWORD 'p\\'q\\\\r'\n`), text);
    assert.ok(text.includes("set -gx SERVICE_HMAC_SECRET ''\nset -gx SVC_HMAC_SECRET ''\n"), text);
    assert.ok(text.endsWith("set -gx SVCCTL_DEV_PID '42'\n"), text);
  });

  it('powershell: single quotes, a quote written twice (about_Quoting_Rules)', () => {
    const text = formatReady(ready, 'powershell');
    assert.ok(text.includes(`$env:SERVICE_PASSWORD = 'p''q\\r'\n`), text);
    assert.ok(text.startsWith("$env:SERVICE_BASE_URL = 'http://127.0.0.1:1234/api'\n"), text);
    assert.doesNotMatch(text, /SVCCTL_DEV_PID/, 'no pid without --detach');
  });

  it('json: the ready line itself, with the pid only when detached', () => {
    assert.deepEqual(JSON.parse(formatReady(ready, 'json')), ready);
    assert.deepEqual(JSON.parse(formatReady(ready, 'json', 7)), { ...ready, pid: 7 });
  });
});
