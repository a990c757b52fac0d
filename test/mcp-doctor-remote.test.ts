/**
 * `svcctl mcp doctor` on remote and proxy entries, end to end: `svcctl dev`
 * runs as a process, `svcctl mcp install` writes the entry into a temp HOME
 * (or a test writes it by hand, in the shapes users have), and doctor
 * connects with the entry's own headers. The sandbox's request log shows
 * independently that doctor really authenticated, and how.
 */
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, secretsIn, type RunResult } from './helpers/cli.js';
import { startDev, type DevServer } from './helpers/dev-sandbox.js';
import { runningPhases } from '../src/http/attempt-deadline.js';
import { tempDir } from './helpers/temp-dirs.js';

const ALICE = { email: 'alice@example.com', password: 'alice-doctor-pw' };
const TOOLS_LINE = /^✓ tools\/list: 3 tools: whoami, list_events, get_event$/m;

let dev: DevServer;
let home: string;
let credentials: Record<string, string>;

before(async () => {
  dev = await startDev(['--user', `${ALICE.email}:${ALICE.password}`]);
  home = await tempDir('svcctl-doctor-remote-');
  credentials = { SERVICE_MCP_URL: dev.ready.mcp_url, SERVICE_EMAIL: ALICE.email, SERVICE_PASSWORD: ALICE.password };
});
after(async () => {
  await dev?.stop();
  await rm(home, { recursive: true, force: true });
});

const run = (args: string[], env: Record<string, string | undefined>, input?: string): Promise<RunResult> =>
  runCli(args, { home, env, input });
const lineOf = (result: RunResult, name: string): string =>
  result.stdout.split('\n').find((line) => line.slice(2).startsWith(`${name}:`)) ?? '';

async function install(args: string[], env: Record<string, string | undefined> = credentials): Promise<void> {
  const result = await run(['mcp', 'install', '--mode', 'remote', ...args], env);
  assert.equal(result.code, 0, result.stderr);
}

describe('mcp doctor: remote mode', () => {
  it('--auth password by reference (Cursor): passes, lists the tools, and the sandbox saw the password login', async () => {
    await install(['--client', 'cursor']);
    const result = await run(['mcp', 'doctor', '--client', 'cursor'], credentials);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, TOOLS_LINE);
    assert.deepEqual(runningPhases(), [], 'no request deadline outlives doctor (its timer would hold the process)');
    assert.match(
      lineOf(result, 'initialize'),
      new RegExp(`^✓ initialize: ${dev.ready.mcp_url} answered \\(svcctl-dev `),
    );
    assert.match(lineOf(result, 'variables'), /^✓ variables: set: SERVICE_EMAIL, SERVICE_PASSWORD$/);
    assert.equal(
      result.stdout
        .trim()
        .split('\n')
        .filter((line) => /^[✓✗] /.test(line)).length,
      5,
    );
    assert.match(result.stderr, /all 5 checks passed$/m);
    await dev.waitForStderr(/POST \/mcp 200 .*alice@example\.com \(password\) 2026-07-28 server\/discover/);
    assert.deepEqual(secretsIn(result, [ALICE.password]), []);
  });

  it('--auth bearer with a token from `svcctl login` (VS Code): passes; the token never shows', async () => {
    const login = await run(
      ['login', '--password-stdin'],
      { SERVICE_BASE_URL: dev.ready.base_url, SERVICE_EMAIL: ALICE.email },
      `${ALICE.password}\n`,
    );
    assert.equal(login.code, 0, login.stderr);
    const token = login.stdout.trim();
    await install(['--client', 'vscode', '--auth', 'bearer'], { SERVICE_MCP_URL: dev.ready.mcp_url });
    const result = await run(['mcp', 'doctor', '--client', 'vscode'], { SERVICE_ACCESS_TOKEN: token });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, TOOLS_LINE);
    await dev.waitForStderr(
      /POST \/mcp 200 .*alice@example\.com \(bearer token sha256:[0-9a-f]+\) 2026-07-28 server\/discover/,
    );
    assert.deepEqual(secretsIn(result, [token]), []);

    const stale = await run(['mcp', 'doctor', '--client', 'vscode'], {
      SERVICE_ACCESS_TOKEN: `${token.slice(0, -4)}AAAA`,
    });
    assert.equal(stale.code, 8);
    assert.match(
      lineOf(stale, 'initialize'),
      /^✗ initialize: .*rejected the entry's credentials \(401\): invalid or expired token/,
    );
    assert.match(stale.stdout, /fix: the access token is wrong or expired: run `svcctl login --save`/);
  });

  it('a wrong password: exit 8 with a line that says the server rejected it, and a fix', async () => {
    const result = await run(['mcp', 'doctor', '--client', 'cursor'], {
      ...credentials,
      SERVICE_PASSWORD: 'not-the-password',
    });
    assert.equal(result.code, 8);
    assert.match(
      lineOf(result, 'initialize'),
      /^✗ initialize: .*rejected the entry's credentials \(401\): invalid email or password$/,
    );
    assert.match(result.stdout, /^ {2}fix: check the email and password the entry sends/m);
    // Counted over the checks run (file, entry, variables, initialize); tools/list was not run after initialize failed.
    assert.match(result.stderr, /error: 1 of 4 checks failed, 1 not run \(tools\/list\)$/m);
    assert.deepEqual(secretsIn(result, ['not-the-password']), []);
  });

  it('VS Code with --secrets prompt: initialize is marked and counted as not run, never as passed', async () => {
    await install(
      ['--client', 'vscode', '--name', 'prompted', '--secrets', 'prompt', '--auth', 'password'],
      credentials,
    );
    const result = await run(['mcp', 'doctor', '--client', 'vscode', '--name', 'prompted'], {});
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      lineOf(result, 'initialize'),
      /^- initialize: not checked: the entry takes its values from VS Code's inputs/,
    );
    // Run: file, entry, variables; initialize and tools/list were not (no connection was made).
    assert.match(result.stderr, /all 3 checks passed, 2 not run \(initialize, tools\/list\)$/m);
    assert.doesNotMatch(result.stdout, /^✓ initialize/m);
    const json = JSON.parse(
      (await run(['--json', 'mcp', 'doctor', '--client', 'vscode', '--name', 'prompted'], {})).stdout,
    );
    assert.deepEqual(json.not_run, ['initialize', 'tools']);
    assert.equal(json.checks.find((check: { name: string }) => check.name === 'initialize').skipped, true);
  });

  it('a missing variable: exit 8 naming it, never printing a value, and no connection tried', async () => {
    const result = await run(['mcp', 'doctor', '--client', 'cursor'], {
      SERVICE_EMAIL: ALICE.email,
      SERVICE_PASSWORD: undefined,
    });
    assert.equal(result.code, 8);
    assert.match(lineOf(result, 'variables'), /^✗ variables: not set: SERVICE_PASSWORD \(set: SERVICE_EMAIL\)$/);
    assert.match(result.stdout, /fix: export SERVICE_PASSWORD in the environment the client starts from/);
    assert.match(lineOf(result, 'initialize'), /^✗ initialize: not tried: SERVICE_PASSWORD is not set$/);
    assert.ok(
      !result.stdout.includes(ALICE.email) && !result.stderr.includes(ALICE.email),
      'a variable value was printed',
    );
  });

  it('legacy X-Svc-Email/X-Svc-Password headers written by hand pass (generic --config file)', async () => {
    const file = join(home, 'legacy', 'mcp.json');
    await mkdir(join(home, 'legacy'), { recursive: true });
    const entry = { url: dev.ready.mcp_url, headers: { 'X-Svc-Email': ALICE.email, 'X-Svc-Password': ALICE.password } };
    await writeFile(file, JSON.stringify({ mcpServers: { legacy: entry } }, null, 2));
    const result = await run(['mcp', 'doctor', '--config', file, '--trust-project'], {});
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(lineOf(result, 'entry'), /^✓ entry: 'legacy' found: remote mode \(url, headers\)$/);
    assert.match(lineOf(result, 'variables'), /^✓ variables: the entry references no variables$/);
    assert.match(result.stdout, TOOLS_LINE);
    await dev.waitForStderr(/POST \/mcp 200 .*alice@example\.com \(legacy-password\) 2026-07-28 server\/discover/);
    assert.deepEqual(secretsIn(result, [ALICE.password]), []);
  });

  it('Codex TOML with env_http_headers, written by hand, forwards the variables by name', async () => {
    const dir = join(home, 'codex-home');
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, 'config.toml'),
      `# mine\n[mcp_servers.ops]\nurl = "${dev.ready.mcp_url}"\nenv_http_headers = { "X-Service-Email" = "OPS_EMAIL", "X-Service-Password" = "OPS_PASSWORD" }\n`,
    );
    const env = { CODEX_HOME: dir, OPS_EMAIL: ALICE.email, OPS_PASSWORD: ALICE.password };
    const result = await run(['mcp', 'doctor', '--client', 'codex', '--name', 'ops'], env);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(lineOf(result, 'variables'), /^✓ variables: set: OPS_EMAIL, OPS_PASSWORD$/);
    const missing = await run(['mcp', 'doctor', '--client', 'codex', '--name', 'ops'], {
      ...env,
      OPS_PASSWORD: undefined,
    });
    assert.equal(missing.code, 8);
    assert.match(lineOf(missing, 'variables'), /not set: OPS_PASSWORD/);
  });
});

describe('mcp doctor: proxy mode', () => {
  it('connects to the URL mcp-remote forwards to, with the --header values, and checks npx', async () => {
    await install(['--client', 'claude-desktop', '--mode', 'proxy']);
    const result = await run(['mcp', 'doctor', '--client', 'claude-desktop'], {});
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(lineOf(result, 'entry'), /proxy mode/);
    assert.match(lineOf(result, 'runner'), /^✓ runner: npx found at /);
    assert.match(lineOf(result, 'initialize'), /checked the URL the proxy forwards to/);
    assert.match(result.stdout, TOOLS_LINE);
    assert.deepEqual(secretsIn(result, [ALICE.password]), []);
  });
});

describe('mcp doctor: --json, lookup and exit codes', () => {
  it('--json: one document with client, scope, file, name, mode, ok and checks of {name, ok, detail, fix}', async () => {
    const result = await run(['mcp', 'doctor', '--client', 'cursor', '--json'], {
      ...credentials,
      SERVICE_PASSWORD: 'wrong-again',
    });
    assert.equal(result.code, 8);
    const report = JSON.parse(result.stdout);
    assert.deepEqual(Object.keys(report), ['client', 'scope', 'file', 'name', 'mode', 'ok', 'checks', 'not_run']);
    assert.deepEqual(report.not_run, ['tools']);
    assert.deepEqual(
      [report.client, report.scope, report.file, report.name, report.mode, report.ok],
      ['cursor', 'user', join(home, '.cursor', 'mcp.json'), 'service', 'remote', false],
    );
    assert.deepEqual(
      report.checks.map((check: { name: string; ok: boolean }) => `${check.name}:${check.ok}`),
      ['file:true', 'entry:true', 'variables:true', 'initialize:false'],
    );
    for (const check of report.checks) {
      assert.deepEqual(Object.keys(check), ['name', 'ok', 'detail', 'fix']);
      assert.equal(check.fix === null, check.ok);
    }
  });

  it('no entry: exit 2 naming the files looked at; a file that does not parse: a failing file check with the position, exit 8', async () => {
    const missing = await run(['mcp', 'doctor', '--client', 'windsurf'], {});
    assert.equal(missing.code, 2);
    assert.match(
      missing.stderr,
      new RegExp(
        `no MCP entry 'service'.*looked at:\\n {2}${join(home, '.codeium', 'windsurf', 'mcp_config.json')} \\(no such file\\)`,
      ),
    );
    const broken = join(home, 'broken.json');
    await writeFile(broken, '{\n  "mcpServers": {\n    "service": { "url": }\n  }\n}\n');
    const result = await run(['mcp', 'doctor', '--config', broken], {});
    assert.equal(result.code, 8);
    // Column 25: the '}' where a value should be, counted by hand in the text above.
    assert.deepEqual(result.stdout.split('\n'), [
      `✗ config file: ${broken}:3:25: the file does not parse (a value is expected)`,
      '  fix: fix the file by hand at that line and column (a missing comma, quote or bracket is the usual cause), then run svcctl mcp doctor again',
      '',
    ]);
    assert.match(result.stderr, /error: 1 of 1 check failed, the others not run \(the entry could not be read\)/);
    const json = await run(['mcp', 'doctor', '--config', broken, '--json'], {});
    assert.equal(json.code, 8);
    const report = JSON.parse(json.stdout);
    assert.deepEqual(
      [report.file, report.mode, report.ok, report.not_run],
      [broken, null, false, ['entry', 'variables']],
    );
    assert.deepEqual(
      report.checks.map((check: { name: string; ok: boolean }) => `${check.name}:${check.ok}`),
      ['file:false'],
    );
    assert.match(report.checks[0].detail, /:3:25: the file does not parse/);
    assert.match(report.checks[0].fix, /line and column/);
  });

  it('a JSON file starting with a UTF-8 byte order mark parses, and the entry in it is checked', async () => {
    const file = join(home, 'bom-mcp.json');
    const entry = {
      mcpServers: {
        service: {
          url: dev.ready.mcp_url,
          headers: { 'X-Service-Email': '${env:SERVICE_EMAIL}', 'X-Service-Password': '${env:SERVICE_PASSWORD}' },
        },
      },
    };
    await writeFile(
      file,
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(entry, null, 2))]),
    );
    const result = await run(['mcp', 'doctor', '--config', file, '--trust-project'], credentials);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(lineOf(result, 'config file'), /^✓ config file: .*bom-mcp\.json parses$/);
    assert.match(result.stdout, TOOLS_LINE);
  });
});
