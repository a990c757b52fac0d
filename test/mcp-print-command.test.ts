/**
 * `svcctl mcp print` and `svcctl mcp command` through the built CLI, with a
 * temp HOME: the document, placeholders for literal secrets, --show-secrets,
 * --json, command lines and install links, usage errors.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli, secretsIn } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const BASE = ['--base-url', 'https://acme.example.com/api'];

test('print: Claude Code user scope, references, file named on stderr', async () => {
  const home = await tempDir();
  const r = await runCli(['mcp', 'print', '--client', 'claude-code', ...BASE], { home });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    mcpServers: {
      service: {
        type: 'stdio',
        command: 'npx',
        args: ['-y', 'service-mcp-server@latest'],
        env: {
          SERVICE_EMAIL: '${SERVICE_EMAIL}',
          SERVICE_PASSWORD: '${SERVICE_PASSWORD}',
          SERVICE_BASE_URL: 'https://acme.example.com/api',
        },
      },
    },
  });
  assert.match(r.stderr, new RegExp(`${join(home, '.claude.json')}`));
  assert.match(r.stderr, /SERVICE_EMAIL, SERVICE_PASSWORD/);
});

test('print: literal secrets are placeholders unless --show-secrets', async () => {
  const env = { SERVICE_EMAIL: 'ann@acme.example', SERVICE_PASSWORD: 'hunter2-secret' };
  const hidden = await runCli(['mcp', 'print', '--client', 'claude-desktop', ...BASE], { env });
  assert.equal(hidden.code, 0, hidden.stderr);
  assert.deepEqual(JSON.parse(hidden.stdout).mcpServers.service.env, {
    SERVICE_EMAIL: 'ann@acme.example',
    SERVICE_PASSWORD: '<SERVICE_PASSWORD>',
    SERVICE_BASE_URL: 'https://acme.example.com/api',
  });
  assert.deepEqual(secretsIn(hidden, ['hunter2-secret']), []);
  const shown = await runCli(['mcp', 'print', '--client', 'claude-desktop', '--show-secrets', ...BASE], { env });
  assert.equal(JSON.parse(shown.stdout).mcpServers.service.env.SERVICE_PASSWORD, 'hunter2-secret');
});

test('print: --show-secrets reads the password from --password-file and a bearer token from --token-file', async () => {
  const dir = await tempDir();
  await writeFile(join(dir, 'pw'), 'from-file\n', { mode: 0o600 });
  await writeFile(join(dir, 'tok'), 'jwt.token.value\n', { mode: 0o600 });
  const r = await runCli([
    'mcp',
    'print',
    '--format',
    'toml',
    '--email',
    'a@b.example',
    '--password-file',
    join(dir, 'pw'),
    '--show-secrets',
    ...BASE,
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^\[mcp_servers\.service\]$/m);
  assert.match(r.stdout, /SERVICE_PASSWORD = "from-file"/);
  const t = await runCli([
    'mcp',
    'print',
    '--client',
    'zed',
    '--mode',
    'remote',
    '--auth',
    'bearer',
    '--token-file',
    join(dir, 'tok'),
    '--show-secrets',
    ...BASE,
  ]);
  assert.equal(t.code, 0, t.stderr);
  assert.deepEqual(JSON.parse(t.stdout), {
    context_servers: {
      service: { url: 'https://acme.example.com/mcp', headers: { Authorization: 'Bearer jwt.token.value' } },
    },
  });
});

test('print: Claude Code proxy keeps ${VAR} for mcp-remote (values in env, none in args) and says why', async () => {
  const home = await tempDir();
  const r = await runCli(['mcp', 'print', '--client', 'claude-code', '--mode', 'proxy', '--auth', 'bearer', ...BASE], {
    home,
  });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).mcpServers.service, {
    type: 'stdio',
    command: 'npx',
    args: [
      'mcp-remote',
      'https://acme.example.com/mcp',
      '--header',
      'Authorization:${SVCCTL_LITERAL_DOLLAR:-$}{SERVICE_AUTH_HEADER}',
    ],
    env: { SERVICE_AUTH_HEADER: 'Bearer ${SERVICE_ACCESS_TOKEN}' },
  });
  assert.match(r.stderr, /SVCCTL_LITERAL_DOLLAR unset/);
  assert.match(r.stderr, /SERVICE_ACCESS_TOKEN/);
});

test('print --json: VS Code prompt inputs and the file path', async () => {
  const home = await tempDir();
  const r = await runCli(
    ['--json', 'mcp', 'print', '--client', 'vscode', '--mode', 'remote', '--secrets', 'prompt', ...BASE],
    { home },
  );
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.file, join(home, '.config', 'Code', 'User', 'mcp.json'));
  assert.deepEqual(Object.keys(doc.document), ['inputs', 'servers']);
  assert.equal(doc.entry.headers['X-Service-Password'], '${input:service-password}');
  assert.equal(doc.literal_secrets, false);
});

test('print: usage errors (exit 2) for Claude Desktop remote, bad name, missing base URL, unknown client', async () => {
  const remote = await runCli(['mcp', 'print', '--client', 'claude-desktop', '--mode', 'remote', ...BASE]);
  assert.equal(remote.code, 2);
  assert.match(remote.stderr, /--mode proxy/);
  assert.equal((await runCli(['mcp', 'print', '--client', 'cursor', '--name', '1bad', ...BASE])).code, 2);
  const noBase = await runCli(['mcp', 'print', '--client', 'cursor']);
  assert.equal(noBase.code, 2);
  assert.match(noBase.stderr, /SERVICE_BASE_URL/);
  assert.equal((await runCli(['mcp', 'print', '--client', 'nope', ...BASE])).code, 2);
  assert.equal((await runCli(['mcp', 'print', '--client', 'windsurf', '--scope', 'project', ...BASE])).code, 2);
});

test('command: claude, gemini, codex command lines; Cursor and VS Code links', async () => {
  const claude = await runCli(['mcp', 'command', '--client', 'claude-code', '--mode', 'remote', ...BASE]);
  assert.equal(claude.code, 0, claude.stderr);
  assert.equal(
    claude.stdout,
    `claude mcp add-json service '{"type":"http","url":"https://acme.example.com/mcp","headers":{"X-Service-Email":"\${SERVICE_EMAIL}","X-Service-Password":"\${SERVICE_PASSWORD}"}}' --scope user\n`,
  );
  const gemini = await runCli(['mcp', 'command', '--client', 'gemini', '--mode', 'remote', ...BASE]);
  assert.equal(
    gemini.stdout,
    `gemini mcp add service https://acme.example.com/mcp --scope user --transport http --timeout 600000 -H 'X-Service-Email: \${SERVICE_EMAIL}' -H 'X-Service-Password: \${SERVICE_PASSWORD}'\n`,
  );
  const codex = await runCli(['mcp', 'command', '--client', 'codex', '--mode', 'remote', '--auth', 'bearer', ...BASE]);
  assert.equal(
    codex.stdout,
    'codex mcp add service --url https://acme.example.com/mcp --bearer-token-env-var SERVICE_ACCESS_TOKEN\n',
  );
  assert.equal((await runCli(['mcp', 'command', '--client', 'codex', '--mode', 'remote', ...BASE])).code, 2);

  const cursor = await runCli(['mcp', 'command', '--client', 'cursor', '--mode', 'remote', ...BASE]);
  const [deeplink, web] = cursor.stdout.trim().split('\n');
  const url = new URL(deeplink ?? '');
  assert.equal(url.protocol, 'cursor:');
  assert.equal(url.searchParams.get('name'), 'service');
  assert.deepEqual(JSON.parse(Buffer.from(url.searchParams.get('config') ?? '', 'base64').toString('utf8')), {
    url: 'https://acme.example.com/mcp',
    headers: { 'X-Service-Email': '${env:SERVICE_EMAIL}', 'X-Service-Password': '${env:SERVICE_PASSWORD}' },
  });
  assert.match(web ?? '', /^https:\/\/cursor\.com\/en\/install-mcp\?name=service&config=/);

  const vscode = await runCli(['--json', 'mcp', 'command', '--client', 'vscode', ...BASE]);
  const doc = JSON.parse(vscode.stdout);
  assert.match(doc.command, /^code --add-mcp '\{"name":"service","type":"stdio"/);
  const link = doc.links.find((l: { kind: string }) => l.kind === 'vscode').url as string;
  assert.equal(JSON.parse(decodeURIComponent(link.slice('vscode:mcp/install?'.length))).name, 'service');

  const desktop = await runCli(['mcp', 'command', '--client', 'claude-desktop', ...BASE]);
  assert.equal(desktop.code, 2);
  assert.match(desktop.stderr, /mcp install --client claude-desktop/);
});

test('a plain-http MCP URL to another host is warned about (--mcp-url and SERVICE_MCP_URL); https and loopback are not', async () => {
  const home = await tempDir();
  const warning =
    /warning: http:\/\/mcp\.acme\.example\/mcp uses plain http: the MCP client's credentials \(password headers or bearer token\) travel unencrypted/;
  const flag = await runCli(
    ['mcp', 'print', '--client', 'cursor', '--mode', 'remote', '--mcp-url', 'http://mcp.acme.example/mcp/'],
    { home },
  );
  assert.equal(flag.code, 0, flag.stderr);
  assert.match(flag.stderr, warning);
  assert.equal(
    JSON.parse(flag.stdout).mcpServers.service.url,
    'http://mcp.acme.example/mcp',
    'still written: a warning, not an error',
  );
  const variable = await runCli(['mcp', 'install', '--client', 'codex', '--mode', 'remote', '--dry-run'], {
    home,
    env: { SERVICE_MCP_URL: 'http://mcp.acme.example/mcp' },
  });
  assert.equal(variable.code, 0, variable.stderr);
  assert.match(variable.stderr, warning);
  for (const url of [
    'https://mcp.acme.example/mcp',
    'http://127.0.0.1:8080/mcp',
    'http://localhost:8080/mcp',
    'http://[::1]:8080/mcp',
  ]) {
    const quiet = await runCli(['mcp', 'print', '--client', 'cursor', '--mode', 'remote', '--mcp-url', url], { home });
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.ok(!/plain http/.test(quiet.stderr), url);
  }
});

test('mcp install for two clients warns about a plain-http URL once', async () => {
  const home = await tempDir();
  const count = (text: string, pattern: RegExp): number => text.split('\n').filter((line) => pattern.test(line)).length;
  const local = await runCli(
    [
      'mcp',
      'install',
      '--client',
      'cursor',
      '--client',
      'windsurf',
      '--base-url',
      'http://acme.example.com/api',
      '--dry-run',
    ],
    { home },
  );
  assert.equal(local.code, 0, local.stderr);
  assert.equal(count(local.stderr, /^warning: http:\/\/acme\.example\.com\/api uses plain http/), 1, local.stderr);
  const remote = await runCli(
    [
      'mcp',
      'install',
      '--client',
      'cursor',
      '--client',
      'windsurf',
      '--mode',
      'remote',
      '--mcp-url',
      'http://acme.example.com/mcp',
      '--dry-run',
    ],
    { home },
  );
  assert.equal(remote.code, 0, remote.stderr);
  assert.equal(count(remote.stderr, /^warning: http:\/\/acme\.example\.com\/mcp uses plain http/), 1, remote.stderr);
  assert.equal(
    count(remote.stdout, /"(url|serverUrl)": "http:\/\/acme\.example\.com\/mcp"/),
    2,
    'both entries still get the URL',
  );
});

test('usage errors from the request checks: --auth bearer in local mode, a TOML file with references, a bad --name', async () => {
  const home = await tempDir();
  const bearer = await runCli(['mcp', 'print', '--client', 'cursor', '--auth', 'bearer', ...BASE], { home });
  assert.equal(bearer.code, 2, bearer.stderr);
  assert.match(bearer.stderr, /--auth bearer is for --mode remote or --mode proxy/);
  const toml = await runCli(['mcp', 'print', '--format', 'toml', '--secrets', 'ref', ...BASE], { home });
  assert.equal(toml.code, 2, toml.stderr);
  assert.match(toml.stderr, /--format toml holds literal values/);
  const name = await runCli(['mcp', 'print', '--client', 'cursor', '--name', '1st', ...BASE], { home });
  assert.equal(name.code, 2, name.stderr);
  assert.match(name.stderr, /letters, digits, '-' and '_', first a letter/);
});
