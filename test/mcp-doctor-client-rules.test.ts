/**
 * `svcctl mcp doctor` on hand-written entries that the real client skips,
 * refuses or misreads (reference §A.1): each fails the `entry` or
 * `variables` check with a fix, while the same entry in the shape the client
 * does read passes against `svcctl dev` (so the failures are the rules, not
 * a broken server). Each entry is given with --client and --config.
 */
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, secretsIn, type RunResult } from './helpers/cli.js';
import { startDev, type DevServer } from './helpers/dev-sandbox.js';
import { tempDir } from './helpers/temp-dirs.js';

const ALICE = { email: 'rules@example.com', password: 'rules-doctor-pw' };
const TOOLS_LINE = /^✓ tools\/list: 3 tools: whoami, list_events, get_event$/m;

let dev: DevServer;
let home: string;
let env: Record<string, string>;

before(async () => {
  dev = await startDev(['--user', `${ALICE.email}:${ALICE.password}`]);
  home = await tempDir('svcctl-doctor-rules-');
  await mkdir(join(home, 'files'), { recursive: true });
  env = { SERVICE_EMAIL: ALICE.email, SERVICE_PASSWORD: ALICE.password };
});
after(async () => {
  await dev?.stop();
  await rm(home, { recursive: true, force: true });
});

const lineOf = (result: RunResult, name: string): string =>
  result.stdout.split('\n').find((line) => line.slice(2).startsWith(`${name}:`)) ?? '';
const literalHeaders = (): Record<string, string> => ({
  'X-Service-Email': ALICE.email,
  'X-Service-Password': ALICE.password,
});
const refHeaders = (form: (name: string) => string): Record<string, string> => ({
  'X-Service-Email': form('SERVICE_EMAIL'),
  'X-Service-Password': form('SERVICE_PASSWORD'),
});

/** Writes `text` to a file of its own and runs doctor on it as `client`'s file. */
async function doctor(client: string, fileName: string, text: string, extra: string[] = []): Promise<RunResult> {
  const file = join(home, 'files', fileName);
  await writeFile(file, text);
  return runCli(['mcp', 'doctor', '--client', client, '--config', file, '--trust-project', ...extra], { home, env });
}
const json = (key: string, entry: Record<string, unknown>): string =>
  JSON.stringify({ [key]: { service: entry } }, null, 2);

function assertFailed(result: RunResult, check: string, detail: RegExp, fix: RegExp): void {
  assert.equal(result.code, 8, result.stdout + result.stderr);
  const line = lineOf(result, check);
  assert.match(line, /^✗ /, result.stdout);
  assert.match(line, detail);
  const lines = result.stdout.split('\n');
  assert.match(lines[lines.indexOf(line) + 1] ?? '', fix);
  assert.deepEqual(secretsIn(result, [ALICE.password]), []);
}

describe('mcp doctor: entries the client ignores or cannot use', () => {
  it('Claude Desktop: a remote entry in its file fails the entry check (the client skips it); nothing else is run', async () => {
    const result = await doctor(
      'claude-desktop',
      'desktop.json',
      json('mcpServers', { type: 'http', url: dev.ready.mcp_url, headers: literalHeaders() }),
      ['--json'],
    );
    assert.equal(result.code, 8);
    const report = JSON.parse(result.stdout);
    assert.deepEqual(
      report.checks.map((check: { name: string; ok: boolean }) => `${check.name}:${check.ok}`),
      ['file:true', 'entry:false'],
    );
    assert.match(report.checks[1].detail, /Claude Desktop ignores remote entries in its file; use --mode proxy$/);
    assert.match(report.checks[1].fix, /svcctl mcp install --client claude-desktop --mode proxy --force/);
    assert.deepEqual(report.not_run, ['variables', 'initialize', 'tools']);
    const bare = await doctor('claude-desktop', 'desktop-bare.json', json('mcpServers', { url: dev.ready.mcp_url }));
    assertFailed(
      bare,
      'entry',
      /Claude Desktop ignores remote entries in its file; use --mode proxy$/,
      /^ {2}fix: .*--mode proxy/,
    );
  });

  it('Cline: a bare url (SSE for Cline) and type "http" (fails its schema) fail; type "streamableHttp" passes', async () => {
    const bare = await doctor(
      'cline',
      'cline-bare.json',
      json('mcpServers', { url: dev.ready.mcp_url, headers: literalHeaders() }),
    );
    assertFailed(
      bare,
      'entry',
      /a `url` without `type` is SSE for Cline.*Cline needs "type": "streamableHttp"$/,
      /^ {2}fix: set "type": "streamableHttp" in the entry/,
    );
    const http = await doctor(
      'cline',
      'cline-http.json',
      json('mcpServers', { type: 'http', url: dev.ready.mcp_url, headers: literalHeaders() }),
    );
    assertFailed(http, 'entry', /`type: "http"` fails Cline's schema/, /^ {2}fix: set "type": "streamableHttp"/);
    const good = await doctor(
      'cline',
      'cline-good.json',
      json('mcpServers', {
        type: 'streamableHttp',
        url: dev.ready.mcp_url,
        headers: refHeaders((name) => `\${env:${name}}`),
      }),
    );
    assert.equal(good.code, 0, good.stdout + good.stderr);
    assert.match(lineOf(good, 'variables'), /^✓ variables: set: SERVICE_EMAIL, SERVICE_PASSWORD$/);
    assert.match(good.stdout, TOOLS_LINE);
  });

  it('Codex: `headers` fails (Codex ignores it) and is not sent; http_headers with the same values passes', async () => {
    const toml = (field: string): string =>
      `[mcp_servers.service]\nurl = "${dev.ready.mcp_url}"\n${field} = { "X-Service-Email" = "${ALICE.email}", "X-Service-Password" = "${ALICE.password}" }\n`;
    const ignored = await doctor('codex', 'headers.toml', toml('headers'));
    assertFailed(
      ignored,
      'entry',
      /Codex ignores `headers`; use http_headers or env_http_headers$/,
      /^ {2}fix: rename headers to env_http_headers/,
    );
    const good = await doctor('codex', 'http-headers.toml', toml('http_headers'));
    assert.equal(good.code, 0, good.stdout + good.stderr);
    assert.match(good.stdout, TOOLS_LINE);
    assert.deepEqual(secretsIn(good, [ALICE.password]), []);
  });

  it('disabled entries: Cline "disabled": true and Codex enabled = false fail the entry check', async () => {
    const cline = await doctor(
      'cline',
      'cline-off.json',
      json('mcpServers', { type: 'streamableHttp', url: dev.ready.mcp_url, headers: literalHeaders(), disabled: true }),
    );
    assertFailed(
      cline,
      'entry',
      /the client has this server disabled \("disabled": true\)$/,
      /^ {2}fix: remove "disabled": true from the entry, or switch it on in Cline's MCP Servers view$/,
    );
    const codex = await doctor(
      'codex',
      'off.toml',
      `[mcp_servers.service]\nurl = "${dev.ready.mcp_url}"\nenabled = false\nenv_http_headers = { "X-Service-Email" = "SERVICE_EMAIL" }\n`,
    );
    assertFailed(
      codex,
      'entry',
      /the client has this server disabled \(enabled = false\)$/,
      /^ {2}fix: remove enabled = false from the entry$/,
    );
  });

  it('a reference in a syntax the client does not expand fails variables, names only the reference, and no connection is tried', async () => {
    const cursor = await doctor(
      'cursor',
      'cursor.json',
      json('mcpServers', { url: dev.ready.mcp_url, headers: refHeaders((name) => `\${${name}}`) }),
    );
    assertFailed(
      cursor,
      'variables',
      /^✗ variables: Cursor expands only \$\{env:VAR\}: '\$\{SERVICE_EMAIL\}', '\$\{SERVICE_PASSWORD\}' reach the server literally$/,
      /^ {2}fix: write \$\{env:SERVICE_EMAIL\}, \$\{env:SERVICE_PASSWORD\} instead/,
    );
    assert.match(lineOf(cursor, 'initialize'), /^✗ initialize: not tried: /);
    assert.deepEqual(secretsIn(cursor, [ALICE.email]), []);

    const claudeCode = await doctor(
      'claude-code',
      'claude-code.json',
      json('mcpServers', { type: 'http', url: dev.ready.mcp_url, headers: refHeaders((name) => `\${env:${name}}`) }),
    );
    assertFailed(
      claudeCode,
      'variables',
      /^✗ variables: Claude Code expands only \$\{VAR\}: '\$\{env:SERVICE_EMAIL\}', '\$\{env:SERVICE_PASSWORD\}' reach the server literally$/,
      /^ {2}fix: write \$\{SERVICE_EMAIL\}/,
    );

    const codex = await doctor(
      'codex',
      'codex-ref.toml',
      `[mcp_servers.service]\nurl = "${dev.ready.mcp_url}"\nhttp_headers = { "X-Service-Email" = "${ALICE.email}", "X-Service-Password" = "\${SERVICE_PASSWORD}" }\n`,
    );
    assertFailed(
      codex,
      'variables',
      /^✗ variables: Codex CLI expands no variable references: '\$\{SERVICE_PASSWORD\}' reaches the server literally$/,
      /^ {2}fix: Codex forwards variables by name/,
    );

    const desktop = await doctor(
      'claude-desktop',
      'desktop-local.json',
      json('mcpServers', {
        command: 'npx',
        args: ['-y', 'service-mcp-server'],
        env: { SERVICE_EMAIL: '${SERVICE_EMAIL}' },
      }),
    );
    assertFailed(
      desktop,
      'variables',
      /^✗ variables: Claude Desktop expands no variable references: '\$\{SERVICE_EMAIL\}' reaches the server literally$/,
      /^ {2}fix: put the values in the file/,
    );
  });

  it('what `svcctl mcp install --mode remote` writes passes every rule, for each client whose file holds remote entries', async () => {
    const installEnv = { ...env, SERVICE_MCP_URL: dev.ready.mcp_url };
    for (const client of ['claude-code', 'cursor', 'vscode', 'windsurf', 'codex', 'gemini', 'cline', 'zed']) {
      const installed = await runCli(['mcp', 'install', '--mode', 'remote', '--client', client, '--force'], {
        home,
        env: installEnv,
      });
      assert.equal(installed.code, 0, `${client}: ${installed.stderr}`);
      const result = await runCli(['mcp', 'doctor', '--client', client], { home, env });
      assert.equal(result.code, 0, `${client}: ${result.stdout}${result.stderr}`);
      assert.match(result.stdout, TOOLS_LINE);
    }
  });

  it('VS Code: an mcp.json with `mcpServers` instead of `servers` fails the entry check (exit 8) instead of "no entry found"', async () => {
    const result = await doctor(
      'vscode',
      'mcp.json',
      json('mcpServers', { type: 'http', url: dev.ready.mcp_url, headers: refHeaders((name) => `\${env:${name}}`) }),
    );
    assertFailed(
      result,
      'entry',
      /^✗ entry: 'service': VS Code reads `servers`; this file has `mcpServers`, which VS Code ignores$/,
      /^ {2}fix: rename `mcpServers` to `servers` in /,
    );
    const proper = await doctor(
      'vscode',
      'mcp-servers.json',
      json('servers', { type: 'http', url: dev.ready.mcp_url, headers: refHeaders((name) => `\${env:${name}}`) }),
    );
    assert.equal(proper.code, 0, proper.stdout + proper.stderr);
  });
});
