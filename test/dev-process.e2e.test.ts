/**
 * `svcctl dev` as a process: its defaults and ready line, a clean stop on SIGTERM (exit 0) and Ctrl+C (exit 130),
 * an events file that survives a restart; and `--detach`: the sandbox keeps running in the background after svcctl
 * returns, its ready line (with the pid) or shell commands on stdout, its request log in --log-file or nowhere,
 * never in the caller's output; `kill PID` stops it cleanly; --format sh is evaluated by real shells. Its flags and
 * the ready line's forms are tested in-process in dev-flags.test.ts.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BIN, cleanEnv, runCli } from './helpers/cli.js';
import { httpRequest, spawnDev } from './helpers/dev-sandbox.js';
import { tempDir } from './helpers/temp-dirs.js';
import { isRunning } from './helpers/processes.js';

const started: number[] = [];
const alive = isRunning;
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

function unsignedEvent(id: string): string {
  return JSON.stringify({ event: { id, title: 'restart', created_at: '2026-11-22T02:31:00Z', payload: '{}' } });
}

describe('svcctl dev: process lifecycle', { concurrency: true }, () => {
  it('without flags: one demo user and one signed demo webhook, with fresh secrets on every start', async () => {
    const [a, b] = await Promise.all([spawnDev(), spawnDev()]);
    try {
      for (const dev of [a, b]) {
        assert.match(dev.ready.base_url, /^http:\/\/127\.0\.0\.1:\d+\/api$/);
        assert.equal(dev.ready.mcp_url, dev.ready.base_url.replace(/\/api$/, '/mcp'));
        assert.equal(dev.ready.users.length, 1);
        assert.equal(dev.ready.webhooks.length, 1);
        assert.equal(typeof dev.ready.webhooks[0]!.hmac_secret, 'string');
        // The ready line comes only after listening: the server answers at once.
        assert.equal(
          (await httpRequest(`${new URL(dev.ready.base_url).origin}/.well-known/openid-configuration`)).status,
          200,
        );
      }
      assert.notEqual(a.ready.base_url, b.ready.base_url);
      assert.notEqual(a.ready.users[0]!.password, b.ready.users[0]!.password);
      assert.notEqual(a.ready.webhooks[0]!.ingest_token, b.ready.webhooks[0]!.ingest_token);
      assert.notEqual(a.ready.webhooks[0]!.hmac_secret, b.ready.webhooks[0]!.hmac_secret);
      assert.equal(a.stdout().split('\n').filter(Boolean).length, 1, 'stdout holds the ready line only');
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('SIGTERM stops it cleanly with exit 0, even with an MCP session open; Ctrl+C (SIGINT) with exit 130', async () => {
    const term = await spawnDev();
    const int = await spawnDev();
    const user = term.ready.users[0]!;
    const client = new Client({ name: 'svcctl-test', version: '1.0.0' });
    const headers = { 'X-Service-Email': user.email, 'X-Service-Password': user.password };
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(term.ready.mcp_url), { requestInit: { headers } }),
      );
      await client.listTools();
    } catch (error) {
      await Promise.all([term.stop(), int.stop()]); // a failed session must not leave both servers running
      throw error;
    }
    const [byTerm, byInt] = await Promise.all([term.stop('SIGTERM'), int.stop('SIGINT')]);
    assert.deepEqual(byTerm, { code: 0, signal: null });
    assert.deepEqual(byInt, { code: 130, signal: null });
    assert.match(term.stderr(), /stopping \(SIGTERM\)…\n[^]*stopped\n$/);
    assert.ok(!/at .*\.js:\d+/.test(int.stderr()), 'no stack trace');
    await client.close();
  });

  it('keeps the events file across a restart', async () => {
    const dir = await tempDir('svcctl-dev-restart-');
    const eventsFile = join(dir, 'events.ndjson');
    try {
      const first = await spawnDev(['--webhook', 'open', '--events-file', eventsFile]);
      const id = randomUUID();
      const headers = {
        'content-type': 'application/json',
        authorization: `Bearer ${first.ready.webhooks[0]!.ingest_token}`,
      };
      assert.equal(
        (await httpRequest(`${first.ready.base_url}/v1/event`, { body: unsignedEvent(id), headers })).status,
        202,
      );
      assert.deepEqual(await first.stop('SIGTERM'), { code: 0, signal: null });
      const lines = (await readFile(eventsFile, 'utf8')).split('\n').filter(Boolean);
      assert.deepEqual(
        lines.map((l) => JSON.parse(l).event.id),
        [id],
      );

      const second = await spawnDev(['--webhook', 'open', '--events-file', eventsFile]);
      try {
        const again = await httpRequest(`${second.ready.base_url}/v1/event`, {
          body: unsignedEvent(id),
          headers: { ...headers, authorization: `Bearer ${second.ready.webhooks[0]!.ingest_token}` },
        });
        assert.equal(again.status, 200, 'the id is known after the restart');
        assert.match(second.stderr(), /1 earlier event read back/);
      } finally {
        await second.stop();
      }
      assert.equal((await readFile(eventsFile, 'utf8')).split('\n').filter(Boolean).length, 1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('svcctl dev --detach', { concurrency: true }, () => {
  it('returns once the sandbox is ready; the sandbox keeps serving; kill PID stops it with its events file flushed', async () => {
    const home = await tempDir('svcctl-detach-');
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
    const home = await tempDir('svcctl-detach-');
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
    assert.equal(statSync(join(home, 'sandbox.log')).mode & 0o777, 0o600);
    assert.doesNotMatch(result.stderr, REQUEST_LOG_LINE);
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
    const home = await tempDir('svcctl-detach-');
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
