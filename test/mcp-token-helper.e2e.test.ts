/**
 * `mcp install --auth bearer --token helper` through the real path, against
 * `svcctl dev`: the Claude Code entry's headersHelper is run by a shell, as
 * Claude Code runs it, and its JSON headers open the session; after the token
 * expired (--token-ttl 4) the helper's new output keeps the same session. A
 * proxy entry runs `svcctl mcp proxy`; `mcp doctor` runs the helper and the
 * proxy for its checks. svcctl is put on PATH the way `npm install -g` does.
 */
import assert from 'node:assert/strict';
import { exec } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { cp, mkdir, readFile, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BIN, cleanEnv, ROOT, runCli, spawnCli } from './helpers/cli.js';
import { startDev, type DevServer } from './helpers/dev-sandbox.js';
import { mcpLogLines } from './helpers/mcp-proxy.js';
import { tempDir } from './helpers/temp-dirs.js';

const USER = { email: 'helper-user@example.com', password: 'he1per-Pa55word' };
/** This clone's svcctl script, as an entry names it (links resolved). */
const SCRIPT = realpathSync(BIN);
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

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

  it('a client without a headers command gets a `svcctl mcp proxy` entry that runs this svcctl by its path (a clone)', async () => {
    const home = await tempDir();
    const env = { SERVICE_BASE_URL: dev.ready.base_url };
    const install = await runCli(
      [
        'mcp',
        'install',
        '--client',
        'gemini',
        '--client',
        'codex',
        '--mode',
        'proxy',
        '--auth',
        'bearer',
        '--token',
        'helper',
      ],
      { home, env },
    );
    assert.equal(install.code, 0, install.stderr);
    assert.match(install.stderr, /The entry runs this svcctl by its path/);
    assert.match(
      install.stderr,
      /You are not logged in: until you run `svcctl login --save`, the entry has no token to send/,
    );
    const gemini = JSON.parse(await readFile(join(home, '.gemini', 'settings.json'), 'utf8')).mcpServers.service;
    assert.deepEqual(gemini, {
      command: process.execPath,
      args: [SCRIPT, '--base-url', dev.ready.base_url, 'mcp', 'proxy'],
    });
    const codex = await readFile(join(home, '.codex', 'config.toml'), 'utf8');
    assert.ok(codex.includes(`command = ${JSON.stringify(process.execPath)}\n`), codex);
    assert.ok(
      codex.includes(`args = [ ${JSON.stringify(SCRIPT)}, "--base-url", "${dev.ready.base_url}", "mcp", "proxy" ]`),
      codex,
    );
  });

  it("run from npx's cache: the entry runs `npx -y svcctl@<this version>`", async () => {
    const home = await tempDir();
    const cached = await copyPackage(
      join(await tempDir(), '.npm', '_npx', '0a1b2c3d4e5f6789', 'node_modules', 'svcctl'),
    );
    const env = { SERVICE_BASE_URL: dev.ready.base_url };
    const install = await spawnCli(
      ['mcp', 'install', '--client', 'gemini', '--mode', 'proxy', '--auth', 'bearer', '--token', 'helper'],
      { home, env, bin: cached },
    );
    assert.equal(install.code, 0, install.stderr);
    assert.match(
      install.stderr,
      new RegExp(`svcctl runs from npx's cache, so the entry runs \`npx -y svcctl@${VERSION.replace(/\./g, '\\.')}\``),
    );
    const gemini = JSON.parse(await readFile(join(home, '.gemini', 'settings.json'), 'utf8')).mcpServers.service;
    assert.deepEqual(gemini, {
      command: 'npx',
      args: ['-y', `svcctl@${VERSION}`, '--base-url', dev.ready.base_url, 'mcp', 'proxy'],
    });
  });

  it('--token is for --auth bearer; --token helper with --format is refused', async () => {
    const home = await tempDir();
    const env = { SERVICE_BASE_URL: dev.ready.base_url };
    const password = await runCli(['mcp', 'print', '--client', 'gemini', '--mode', 'remote', '--token', 'helper'], {
      home,
      env,
    });
    assert.equal(password.code, 2);
    assert.match(password.stderr, /--token is for --auth bearer/);
    const generic = await runCli(
      [
        'mcp',
        'print',
        '--config',
        join(home, 'x.json'),
        '--format',
        'mcpServers',
        '--mode',
        'remote',
        '--auth',
        'bearer',
        '--token',
        'helper',
      ],
      { home, env },
    );
    assert.equal(generic.code, 2);
    assert.match(generic.stderr, /--token helper is for --client/);
    const codexAdd = await runCli(
      ['mcp', 'command', '--client', 'codex', '--mode', 'remote', '--auth', 'bearer', '--token', 'helper'],
      { home, env },
    );
    assert.equal(codexAdd.code, 2);
    assert.match(codexAdd.stderr, /`codex mcp add` has no option for http_headers_helper/);
  });
});

describe('mcp doctor runs the helper and the proxy (svcctl dev, tokens of an hour)', () => {
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
    assert.match(failing.stdout + failing.stderr, /svcctl login --save --remember-password/);
  });

  it('says when the svcctl an entry runs by its path is gone, and how to write the entry again', async () => {
    const { home, env } = await homeWithSvcctl(dev);
    const moved = await copyPackage(join(await tempDir(), 'old-clone'));
    for (const [client, mode] of [
      ['claude-code', 'remote'],
      ['gemini', 'proxy'],
    ] as const) {
      const install = await spawnCli(
        ['mcp', 'install', '--client', client, '--mode', mode, '--auth', 'bearer', '--token', 'helper'],
        { home, env, bin: moved },
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
