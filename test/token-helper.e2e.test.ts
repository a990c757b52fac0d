/**
 * Token helpers run as processes. `svcctl token --refresh`: what its start-up loads on the fast path (a fresh saved
 * token: no request, no HTTP code loaded), its argv while it logs in, and the password kept in the OS keychain by
 * `login --save --remember-password` (a Secret Service in a private D-Bus session where gnome-keyring is installed).
 * `mcp install --auth bearer --token helper` against a sandbox: the Claude Code entry's headersHelper run by a shell,
 * as Claude Code runs it, whose output keeps the same session after the token expired (--token-ttl 4); `mcp doctor`
 * running the helper and the proxy of entries. svcctl is put on PATH the way `npm install -g` does.
 */
import assert from 'node:assert/strict';
import { exec, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BIN, cleanEnv, ROOT, runCli, spawnCli } from './helpers/cli.js';
import { startDev, type DevServer } from './helpers/dev-sandbox.js';
import { makeJwt, nowPlus } from './helpers/jwt.js';
import { EMAIL, PASSWORD, startLoginServer, type LoginServer } from './helpers/login-server.js';
import { mcpLogLines } from './helpers/mcp-proxy.js';
import { startRecordingServer } from './helpers/recording-server.js';
import { saveToken } from './helpers/saved-token.js';
import { tempDir } from './helpers/temp-dirs.js';
import { pollUntil } from './helpers/poll.js';

const RECORD_LOADS = fileURLToPath(new URL('./fixtures/record-loads.mjs', import.meta.url));
const USER = { email: 'helper-user@example.com', password: 'he1per-Pa55word' };
/** This clone's svcctl script, as an entry names it (links resolved). */
const SCRIPT = realpathSync(BIN);

let server: LoginServer;
before(async () => {
  server = await startLoginServer();
});
after(() => server?.close());

/** The built package (bin, dist, package.json) copied to `dir`, as an install or npx's cache holds it; its script. */
async function copyPackage(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (const part of ['bin', 'dist', 'package.json']) await cp(join(ROOT, part), join(dir, part), { recursive: true });
  return join(dir, 'bin', 'svcctl.js');
}

/** A temp HOME with svcctl on PATH (a link to the built CLI, as npm install -g makes) and a saved login. */
async function homeWithSvcctl(dev: DevServer): Promise<{ home: string; env: Record<string, string> }> {
  const home = await tempDir();
  await mkdir(join(home, 'bin'));
  await symlink(BIN, join(home, 'bin', 'svcctl'));
  const env = {
    PATH: `${join(home, 'bin')}:${process.env.PATH}`,
    SERVICE_BASE_URL: dev.ready.base_url,
    SERVICE_PASSWORD: USER.password,
  };
  const login = await runCli(['login', '--save', '--email', USER.email], { home, env });
  assert.equal(login.code, 0, login.stderr);
  return { home, env };
}

/** Runs a headersHelper string the way Claude Code does: through a shell, stdout trimmed, a JSON object of strings. */
async function runHelper(line: string, home: string, env: Record<string, string>): Promise<Record<string, string>> {
  const stdout = await new Promise<string>((resolve, reject) =>
    exec(line, { cwd: home, env: cleanEnv(home, env), timeout: 10_000 }, (error, out, err) =>
      error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out),
    ),
  );
  const headers = JSON.parse(stdout.trim());
  assert.ok(Object.values(headers).every((value) => typeof value === 'string'));
  return headers;
}

async function listTools(
  url: string,
  headers: Record<string, string>,
  sessionId?: string,
): Promise<{ names: string[]; sessionId: string | undefined; client: Client }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers },
    ...(sessionId ? { sessionId } : {}),
  });
  const client = new Client({ name: 'headers-helper-test', version: '1.0.0' });
  await client.connect(transport);
  const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
  return { names, sessionId: transport.sessionId, client };
}

describe('token helpers as processes', { concurrency: true }, () => {
  describe('svcctl token --refresh', { concurrency: true }, () => {
    it('a fresh saved token: no request, and neither node:http nor undici nor the login code is loaded', async () => {
      const home = await tempDir();
      const loads = join(home, 'loads.txt');
      const token = makeJwt({ email: EMAIL, iat: nowPlus(0), exp: nowPlus(3600) });
      await saveToken(home, server.baseUrl, token);
      const before = server.requests.length;
      const env = {
        SERVICE_BASE_URL: server.baseUrl,
        SERVICE_PASSWORD: PASSWORD,
        NODE_OPTIONS: `--import=${RECORD_LOADS}`,
        SVCCTL_LOAD_LOG: loads,
        // The compile cache runs dist/ through vm.Script, which require.cache does not see: the same files load.
        NODE_DISABLE_COMPILE_CACHE: '1',
      };
      // What a start-up loads is seen only in a fresh process.
      const fast = await spawnCli(['token', '--refresh', '--json-headers'], { home, env });
      assert.equal(fast.code, 0, fast.stderr);
      assert.deepEqual(JSON.parse(fast.stdout), { Authorization: `Bearer ${token}` });
      assert.equal(server.requests.length, before);
      const loaded = (await readFile(loads, 'utf8')).split('\n');
      assert.ok(
        loaded.some((url) => /\/chunks\/token-/.test(url)),
        'the recorder saw nothing',
      );
      assert.deepEqual(
        loaded.filter((url) => /^node:https?$|undici|\/chunks\/login-/.test(url)),
        [],
      );

      // The same recorder does see them when a login is needed (the check above is not vacuous).
      await saveToken(home, server.baseUrl, makeJwt({ email: EMAIL, iat: nowPlus(-7200), exp: nowPlus(-3600) }));
      await writeFile(loads, '');
      const slow = await spawnCli(['token', '--refresh'], { home, env });
      assert.equal(slow.code, 0, slow.stderr);
      assert.equal(server.requests.length, before + 1);
      assert.ok((await readFile(loads, 'utf8')).split('\n').some((url) => url === 'node:http'));
    });

    it('a helper that is logging in shows no secret in its argv (/proc/<pid>/cmdline)', {
      skip: process.platform !== 'linux' && 'reads /proc, which only Linux has',
    }, async () => {
      // A login endpoint that answers after a moment, so the helper is still running when its argv is read.
      const slow = await startLoginServer();
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      const gate = await startRecordingServer(async (request) => {
        await held;
        const answer = await fetch(`${slow.origin}${request.url}`, {
          method: 'POST',
          body: request.body,
          headers: { 'content-type': 'application/json' },
        });
        return { status: answer.status, headers: { 'content-type': 'application/json' }, body: await answer.text() };
      });
      try {
        const home = await tempDir();
        await saveToken(home, gate.baseUrl, makeJwt({ email: EMAIL, iat: nowPlus(-7200), exp: nowPlus(-3600) }));
        const child = spawn(process.execPath, [BIN, 'token', '--refresh', '--json-headers'], {
          cwd: home,
          env: cleanEnv(home, { SERVICE_BASE_URL: gate.baseUrl, SERVICE_PASSWORD: PASSWORD }),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
        const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
        await pollUntil('the helper logging in', () => gate.requests.length > 0, { withinMs: 10_000 });
        assert.equal(gate.requests.length, 1, 'the helper logged in once');
        const cmdline = (await readFile(`/proc/${child.pid}/cmdline`, 'utf8')).split('\0').join(' ').trim();
        release();
        assert.equal(await exited, 0);
        assert.match(cmdline, /token --refresh --json-headers$/);
        const token = JSON.parse(stdout).Authorization.replace(/^Bearer /, '');
        assert.equal(token, slow.issued[0]);
        for (const secret of [PASSWORD, token]) assert.ok(!cmdline.includes(secret), 'a secret is in the helper argv');
      } finally {
        release();
        await Promise.all([gate.close(), slow.close()]);
      }
    });
  });

  describe('mcp install --auth bearer --token helper (svcctl dev --token-ttl 4)', () => {
    let dev: DevServer;
    // Time moved forward for the sandbox and for the helper runs that are given it (no waiting for a token to expire).
    let moved = 0;
    const clock = (): Date => new Date(Date.now() + moved);
    before(async () => {
      // 4 s tokens: the helper hands one out only while it has over half its life left (2 s), enough for a
      // connection on a loaded machine; with 2 s tokens that could be a few hundred milliseconds.
      dev = await startDev(['--token-ttl', '4', '--user', `${USER.email}:${USER.password}`], { now: clock });
    });
    after(async () => {
      await dev?.stop();
    });

    it('Claude Code: a headersHelper entry whose output still works after the token expired, in the same session', async () => {
      const { home, env } = await homeWithSvcctl(dev);
      const install = await runCli(
        ['mcp', 'install', '--client', 'claude-code', '--mode', 'remote', '--auth', 'bearer', '--token', 'helper'],
        { home, env },
      );
      assert.equal(install.code, 0, install.stderr);
      assert.match(install.stderr, /The entry runs this svcctl by its path/);
      const text = await readFile(join(home, '.claude.json'), 'utf8');
      const entry = JSON.parse(text).mcpServers.service;
      assert.match(`${process.execPath} ${SCRIPT}`, /^[\w/.+-]+ [\w/.+-]+$/, 'paths a shell takes unquoted');
      assert.deepEqual(entry, {
        type: 'http',
        url: dev.ready.mcp_url,
        headersHelper: `${process.execPath} ${SCRIPT} --base-url ${dev.ready.base_url} token --refresh --json-headers`,
      });
      assert.ok(!text.includes(USER.password) && !text.includes('eyJ'), 'a secret is in the file');

      const logStart = dev.stderr().length;
      // As Claude Code does: the helper at connection time, and once more (then one retry) when the server answers 401,
      // which a loaded machine can cause with short tokens.
      // After time has moved, the helper runs in-process with the moved clock (a process would read the real one),
      // with the arguments of the entry's command.
      const helperArgs = entry.headersHelper.split(' ').slice(2);
      const helperAt = async (): Promise<Record<string, string>> => {
        if (moved === 0) return runHelper(entry.headersHelper, home, env);
        const run = await runCli(helperArgs, { home, env, now: clock });
        assert.equal(run.code, 0, run.stderr);
        return JSON.parse(run.stdout.trim());
      };
      const connect = async (
        sessionId?: string,
      ): Promise<{ headers: Record<string, string>; opened: Awaited<ReturnType<typeof listTools>> }> => {
        const headers = await helperAt();
        try {
          return { headers, opened: await listTools(entry.url, headers, sessionId) };
        } catch (error) {
          if (!/401|invalid or expired token/.test(String(error))) throw error;
          const again = await helperAt();
          return { headers: again, opened: await listTools(entry.url, again, sessionId) };
        }
      };
      const first = await connect();
      assert.deepEqual(first.opened.names, ['get_event', 'list_events', 'whoami']);
      moved += 4600; // past the 4 s lifetime of the first token
      const second = await connect(first.opened.sessionId);
      assert.notEqual(second.headers.Authorization, first.headers.Authorization);
      assert.deepEqual(second.opened.names, ['get_event', 'list_events', 'whoami']);
      await Promise.all([first.opened.client.close(), second.opened.client.close()]);

      // A log line is written a moment after its response.
      const secondToken = createHash('sha256')
        .update(second.headers.Authorization!.replace(/^Bearer /, ''))
        .digest('hex')
        .slice(0, 12);
      await dev.waitForStderr(new RegExp(`token sha256:${secondToken}\\) session`));
      const lines = mcpLogLines(dev.stderr().slice(logStart)).filter(
        (line) => line.session !== undefined && / POST /.test(line.line),
      );
      const shown = lines.map((line) => line.line).join('\n');
      // The session the first connection kept (a retry after a 401 on a loaded machine may have opened and left another).
      const kept = lines.filter((line) => line.session === first.opened.sessionId);
      assert.ok(
        kept.some((line) => line.token === secondToken),
        `the new token was not used in the first session:\n${shown}`,
      );
      assert.ok(new Set(kept.map((line) => line.token)).size >= 2, shown);
      assert.ok(
        lines.filter((line) => line.token === secondToken).every((line) => line.session === first.opened.sessionId),
        shown,
      );
    });
  });

  describe('mcp doctor runs the helper and the proxy (svcctl dev, tokens of an hour)', { concurrency: true }, () => {
    let dev: DevServer;
    before(async () => {
      dev = await startDev(['--user', `${USER.email}:${USER.password}`]);
    });
    after(async () => {
      await dev?.stop();
    });

    it('passes a headersHelper entry and a proxy entry, and says what to do when the proxy cannot log in', async () => {
      const { home, env } = await homeWithSvcctl(dev);
      for (const [client, mode] of [
        ['claude-code', 'remote'],
        ['gemini', 'proxy'],
        ['codex', 'remote'],
      ] as const) {
        const install = await runCli(
          ['mcp', 'install', '--client', client, '--mode', mode, '--auth', 'bearer', '--token', 'helper'],
          { home, env },
        );
        assert.equal(install.code, 0, install.stderr);
      }
      const claude = await runCli(['--json', 'mcp', 'doctor', '--client', 'claude-code'], { home, env });
      assert.equal(claude.code, 0, claude.stdout + claude.stderr);
      const claudeChecks = JSON.parse(claude.stdout).checks ?? JSON.parse(claude.stdout)[0]?.checks;
      assert.deepEqual(
        claudeChecks.map((check: { name: string }) => check.name),
        ['file', 'entry', 'variables', 'headers', 'initialize', 'tools'],
      );
      assert.match(
        claudeChecks[3].detail,
        /headersHelper `\S+ \S+svcctl\.js --base-url .* token --refresh --json-headers` printed Authorization/,
      );

      const gemini = await runCli(['--json', 'mcp', 'doctor', '--client', 'gemini', '--scope', 'user'], { home, env });
      assert.equal(gemini.code, 0, gemini.stdout + gemini.stderr);
      const geminiReport = JSON.parse(gemini.stdout);
      const geminiChecks = geminiReport.checks ?? geminiReport[0]?.checks;
      assert.deepEqual(
        geminiChecks.map((check: { name: string }) => check.name),
        ['file', 'entry', 'variables', 'node', 'runner', 'initialize', 'tools'],
      );
      assert.match(geminiChecks[6].detail, /3 tools: .*whoami/);
      // Codex's http_headers_helper (its row's headers command) in a url entry.
      const codexToml = await readFile(join(home, '.codex', 'config.toml'), 'utf8');
      assert.ok(
        codexToml.includes(
          `http_headers_helper = "${process.execPath} ${SCRIPT} --base-url ${dev.ready.base_url} token --refresh --json-headers"\n`,
        ),
        codexToml,
      );
      const codex = await runCli(['--json', 'mcp', 'doctor', '--client', 'codex'], { home, env });
      assert.equal(codex.code, 0, codex.stdout + codex.stderr);
      const codexReport = JSON.parse(codex.stdout);
      assert.deepEqual(
        (codexReport.checks ?? codexReport[0]?.checks).map((check: { name: string }) => check.name),
        ['file', 'entry', 'variables', 'headers', 'initialize', 'tools'],
      );
      for (const text of [claude.stdout, gemini.stdout, codex.stdout])
        assert.ok(!text.includes('eyJ') && !text.includes(USER.password));

      // Without a saved token the proxy has nothing to log in with (a client does not pass SERVICE_PASSWORD on).
      const logout = await runCli(['logout'], { home, env });
      assert.equal(logout.code, 0, logout.stderr);
      const failing = await runCli(['mcp', 'doctor', '--client', 'gemini', '--scope', 'user'], { home, env });
      assert.equal(failing.code, 8, failing.stdout + failing.stderr);
      const helperFailing = await runCli(['mcp', 'doctor', '--client', 'claude-code'], { home, env });
      assert.equal(helperFailing.code, 8, helperFailing.stdout + helperFailing.stderr);
      // A fix proposes only what works here: the command itself says whether this machine has a keychain.
      const login = ['login', '--save', '--remember-password', '--email', USER.email];
      const keychain = (await runCli(login, { home, env: { ...env, SERVICE_PASSWORD: USER.password } })).code !== 7;
      const fixes = `${failing.stdout}${helperFailing.stdout}`.match(/^ {2}fix: .*$/gm)?.join('\n') ?? '';
      assert.match(
        fixes,
        keychain ? /svcctl login --save --remember-password/ : /this machine has no OS keychain \(.+\), so/,
      );
      if (!keychain) assert.doesNotMatch(fixes, /--remember-password/);
    });

    it('says when the svcctl an entry runs by its path is gone, and how to write the entry again', async () => {
      const { home, env } = await homeWithSvcctl(dev);
      const moved = await copyPackage(join(await tempDir(), 'old-clone'));
      for (const [client, mode] of [
        ['claude-code', 'remote'],
        ['gemini', 'proxy'],
      ] as const) {
        const install = await runCli(
          ['mcp', 'install', '--client', client, '--mode', mode, '--auth', 'bearer', '--token', 'helper'],
          { home, env, script: moved },
        );
        assert.equal(install.code, 0, install.stderr);
      }
      assert.ok((await readFile(join(home, '.claude.json'), 'utf8')).includes(moved), 'the entry names the copy');
      const before = await runCli(['mcp', 'doctor', '--client', 'gemini', '--scope', 'user'], { home, env });
      assert.equal(before.code, 0, before.stdout + before.stderr);
      await rm(join(moved, '..', '..'), { recursive: true, force: true });

      for (const [client, mode, check] of [
        ['claude-code', 'remote', 'headers'],
        ['gemini', 'proxy', 'runner'],
      ] as const) {
        const doctor = await runCli(['--json', 'mcp', 'doctor', '--client', client, '--scope', 'user'], { home, env });
        assert.equal(doctor.code, 8, doctor.stdout + doctor.stderr);
        const report = JSON.parse(doctor.stdout);
        const failed = (report.checks ?? report[0]?.checks).find((item: { ok: boolean }) => !item.ok);
        assert.equal(failed.name, check);
        assert.equal(
          failed.detail,
          `the svcctl this entry runs is gone: ${moved} does not exist (moved or deleted since the entry was written)`,
        );
        const fix = `svcctl mcp install --client ${client} --mode ${mode} --auth bearer --token helper --force`;
        assert.equal(failed.fix, `write the entry again with the svcctl you run now: ${fix}`);
        // The fix, run with this svcctl, gives an entry that passes.
        const again = await runCli(fix.split(' ').slice(1), { home, env });
        assert.equal(again.code, 0, again.stderr);
        const after = await runCli(['mcp', 'doctor', '--client', client, '--scope', 'user'], { home, env });
        assert.equal(after.code, 0, after.stdout + after.stderr);
      }
    });
  });
});
