/**
 * Golden entries per client × mode, written by hand from the MCP clients
 * reference (§0, §A.1, §A.3) and the contract (section 4): URL field and
 * transport per client, variable syntax, Codex forwarding by name, Zed's
 * source, Claude Desktop's refusal of remote entries, Windows `cmd /c npx`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CliError } from '../src/core/errors.js';
import { checkSecrets, defaultSecrets, renderEntry } from '../src/mcp/clients/render-entry.js';
import type { ClientId, EntryRequest, Mode } from '../src/mcp/types.js';
import { BASE, entryRequest, MCP, mcpRemoteArgs, MCP_REMOTE_BEARER_ARGS } from './helpers/mcp-request.js';

// Gemini CLI's own default request timeout, written out so `gemini mcp list` does not stop at its 5 s (docs/mcp.md).
const GEMINI_TIMEOUT = 600_000;

const req = (client: ClientId, mode: Mode, extra: Partial<EntryRequest> = {}): EntryRequest =>
  entryRequest(client, mode, extra.auth ?? 'password', extra);

const render = (client: ClientId, mode: Mode, extra: Partial<EntryRequest> = {}) =>
  renderEntry(req(client, mode, extra));
const LOCAL_ARGS = ['-y', 'service-mcp-server@latest'];
const env = (email: string, password: string) => ({
  SERVICE_EMAIL: email,
  SERVICE_PASSWORD: password,
  SERVICE_BASE_URL: BASE,
});
const PROXY_ARGS = mcpRemoteArgs();

test('default secrets: references where the client expands or forwards variables, literal for Claude Desktop and Zed', () => {
  const defaults = [
    'claude-desktop',
    'claude-code',
    'cursor',
    'vscode',
    'windsurf',
    'codex',
    'gemini',
    'cline',
    'zed',
  ].map((c) => defaultSecrets({ client: c as ClientId }));
  assert.deepEqual(defaults, ['literal', 'ref', 'ref', 'ref', 'ref', 'ref', 'ref', 'ref', 'literal']);
  assert.equal(defaultSecrets({ format: 'toml' }), 'literal');
});

test('local mode per client', () => {
  assert.deepEqual(render('claude-desktop', 'local').value, {
    command: 'npx',
    args: LOCAL_ARGS,
    env: env('ann@acme.example', 'p4ss word'),
  });
  assert.deepEqual(render('claude-code', 'local').value, {
    type: 'stdio',
    command: 'npx',
    args: LOCAL_ARGS,
    env: env('${SERVICE_EMAIL}', '${SERVICE_PASSWORD}'),
  });
  assert.deepEqual(render('gemini', 'local').value, {
    command: 'npx',
    args: LOCAL_ARGS,
    env: env('${SERVICE_EMAIL}', '${SERVICE_PASSWORD}'),
    timeout: GEMINI_TIMEOUT,
  });
  for (const client of ['cursor', 'windsurf', 'cline'] as const) {
    assert.deepEqual(
      render(client, 'local').value,
      { command: 'npx', args: LOCAL_ARGS, env: env('${env:SERVICE_EMAIL}', '${env:SERVICE_PASSWORD}') },
      client,
    );
  }
  assert.deepEqual(render('vscode', 'local').value, {
    type: 'stdio',
    command: 'npx',
    args: LOCAL_ARGS,
    env: env('${env:SERVICE_EMAIL}', '${env:SERVICE_PASSWORD}'),
  });
  assert.deepEqual(render('zed', 'local').value, {
    source: 'custom',
    command: 'npx',
    args: LOCAL_ARGS,
    env: env('ann@acme.example', 'p4ss word'),
  });
  assert.deepEqual(render('codex', 'local').value, {
    command: 'npx',
    args: LOCAL_ARGS,
    env: { SERVICE_BASE_URL: BASE },
    env_vars: ['SERVICE_EMAIL', 'SERVICE_PASSWORD'],
  });
  assert.deepEqual(render('codex', 'local', { secrets: 'literal' }).value, {
    command: 'npx',
    args: LOCAL_ARGS,
    env: env('ann@acme.example', 'p4ss word'),
  });
});

test('remote mode per client: URL field and transport discriminator', () => {
  const headers = (e: string, p: string) => ({ 'X-Service-Email': e, 'X-Service-Password': p });
  assert.deepEqual(render('claude-code', 'remote').value, {
    type: 'http',
    url: MCP,
    headers: headers('${SERVICE_EMAIL}', '${SERVICE_PASSWORD}'),
  });
  assert.deepEqual(render('gemini', 'remote').value, {
    type: 'http',
    url: MCP,
    headers: headers('${SERVICE_EMAIL}', '${SERVICE_PASSWORD}'),
    timeout: GEMINI_TIMEOUT,
  });
  assert.deepEqual(render('vscode', 'remote').value, {
    type: 'http',
    url: MCP,
    headers: headers('${env:SERVICE_EMAIL}', '${env:SERVICE_PASSWORD}'),
  });
  assert.deepEqual(render('cursor', 'remote').value, {
    url: MCP,
    headers: headers('${env:SERVICE_EMAIL}', '${env:SERVICE_PASSWORD}'),
  });
  assert.deepEqual(render('windsurf', 'remote').value, {
    serverUrl: MCP,
    headers: headers('${env:SERVICE_EMAIL}', '${env:SERVICE_PASSWORD}'),
  });
  assert.deepEqual(render('cline', 'remote').value, {
    type: 'streamableHttp',
    url: MCP,
    headers: headers('${env:SERVICE_EMAIL}', '${env:SERVICE_PASSWORD}'),
  });
  assert.deepEqual(render('zed', 'remote').value, { url: MCP, headers: headers('ann@acme.example', 'p4ss word') });
  assert.deepEqual(render('codex', 'remote').value, {
    url: MCP,
    env_http_headers: { 'X-Service-Email': 'SERVICE_EMAIL', 'X-Service-Password': 'SERVICE_PASSWORD' },
  });
  assert.deepEqual(render('codex', 'remote', { auth: 'bearer' }).value, {
    url: MCP,
    bearer_token_env_var: 'SERVICE_ACCESS_TOKEN',
  });
  assert.deepEqual(render('codex', 'remote', { auth: 'bearer', secrets: 'literal' }).value, {
    url: MCP,
    http_headers: { Authorization: 'Bearer tok.en' },
  });
  assert.deepEqual(render('claude-code', 'remote', { auth: 'bearer' }).value, {
    type: 'http',
    url: MCP,
    headers: { Authorization: 'Bearer ${SERVICE_ACCESS_TOKEN}' },
  });
});

test('Claude Desktop cannot hold a remote server: usage error suggesting --mode proxy', () => {
  assert.throws(
    () => render('claude-desktop', 'remote'),
    (error: unknown) => error instanceof CliError && error.exitCode === 2 && /--mode proxy/.test(error.hint ?? ''),
  );
});

test('proxy mode: mcp-remote with Name:${VAR} headers and the values in env', () => {
  assert.deepEqual(render('claude-desktop', 'proxy').value, {
    command: 'npx',
    args: PROXY_ARGS,
    env: { SERVICE_EMAIL: 'ann@acme.example', SERVICE_PASSWORD: 'p4ss word' },
  });
  assert.deepEqual(render('cursor', 'proxy').value, {
    command: 'npx',
    args: PROXY_ARGS,
    env: { SERVICE_EMAIL: '${env:SERVICE_EMAIL}', SERVICE_PASSWORD: '${env:SERVICE_PASSWORD}' },
  });
  assert.deepEqual(render('cursor', 'proxy', { auth: 'bearer' }).value, {
    command: 'npx',
    args: MCP_REMOTE_BEARER_ARGS,
    env: { SERVICE_AUTH_HEADER: 'Bearer ${env:SERVICE_ACCESS_TOKEN}' },
  });
  assert.deepEqual(render('zed', 'proxy').value, {
    source: 'custom',
    command: 'npx',
    args: PROXY_ARGS,
    env: { SERVICE_EMAIL: 'ann@acme.example', SERVICE_PASSWORD: 'p4ss word' },
  });
  // Claude Code and Gemini expand ${VAR} in args themselves: `${` is written as
  // `${SVCCTL_LITERAL_DOLLAR:-$}{` (unset variable with the default "$"), the values go in env.
  assert.deepEqual(render('claude-code', 'proxy').value, {
    type: 'stdio',
    command: 'npx',
    args: [
      'mcp-remote',
      MCP,
      '--header',
      'X-Service-Email:${SVCCTL_LITERAL_DOLLAR:-$}{SERVICE_EMAIL}',
      '--header',
      'X-Service-Password:${SVCCTL_LITERAL_DOLLAR:-$}{SERVICE_PASSWORD}',
    ],
    env: { SERVICE_EMAIL: '${SERVICE_EMAIL}', SERVICE_PASSWORD: '${SERVICE_PASSWORD}' },
  });
  assert.deepEqual(render('gemini', 'proxy', { auth: 'bearer' }).value, {
    command: 'npx',
    args: ['mcp-remote', MCP, '--header', 'Authorization:${SVCCTL_LITERAL_DOLLAR:-$}{SERVICE_AUTH_HEADER}'],
    env: { SERVICE_AUTH_HEADER: 'Bearer ${SERVICE_ACCESS_TOKEN}' },
    timeout: GEMINI_TIMEOUT,
  });
  // Literal values: same arguments, the values in env (Gemini was refused before: it could expand the argument).
  assert.deepEqual(render('claude-code', 'proxy', { auth: 'bearer', secrets: 'literal' }).value, {
    type: 'stdio',
    command: 'npx',
    args: ['mcp-remote', MCP, '--header', 'Authorization:${SVCCTL_LITERAL_DOLLAR:-$}{SERVICE_AUTH_HEADER}'],
    env: { SERVICE_AUTH_HEADER: 'Bearer tok.en' },
  });
  assert.deepEqual(render('gemini', 'proxy', { secrets: 'literal' }).value, {
    command: 'npx',
    args: [
      'mcp-remote',
      MCP,
      '--header',
      'X-Service-Email:${SVCCTL_LITERAL_DOLLAR:-$}{SERVICE_EMAIL}',
      '--header',
      'X-Service-Password:${SVCCTL_LITERAL_DOLLAR:-$}{SERVICE_PASSWORD}',
    ],
    env: { SERVICE_EMAIL: 'ann@acme.example', SERVICE_PASSWORD: 'p4ss word' },
    timeout: GEMINI_TIMEOUT,
  });
  assert.deepEqual(render('codex', 'proxy').value, {
    command: 'npx',
    args: PROXY_ARGS,
    env_vars: ['SERVICE_EMAIL', 'SERVICE_PASSWORD'],
  });
  // Codex forwards variables by name; off Windows one argument "Authorization:Bearer ${…}" is fine.
  const codexBearer = render('codex', 'proxy', { auth: 'bearer' });
  assert.deepEqual(codexBearer.value, {
    command: 'npx',
    args: ['mcp-remote', MCP, '--header', 'Authorization:Bearer ${SERVICE_ACCESS_TOKEN}'],
    env_vars: ['SERVICE_ACCESS_TOKEN'],
  });
  assert.deepEqual(codexBearer.variablesToExport, ['SERVICE_ACCESS_TOKEN']);
  // mcp-remote refuses plain http to a non-loopback host without --allow-http.
  assert.deepEqual(render('windsurf', 'proxy', { mcpUrl: 'http://10.0.0.5/mcp', auth: 'bearer' }).value, {
    command: 'npx',
    args: ['mcp-remote', 'http://10.0.0.5/mcp', '--header', 'Authorization:${SERVICE_AUTH_HEADER}', '--allow-http'],
    env: { SERVICE_AUTH_HEADER: 'Bearer ${env:SERVICE_ACCESS_TOKEN}' },
  });
  assert.deepEqual(
    (render('windsurf', 'proxy', { mcpUrl: 'http://127.0.0.1:8080/mcp' }).value.args as string[]).includes(
      '--allow-http',
    ),
    false,
  );
});

test('Windows: cmd /c npx for clients that spawn without a shell, plain npx for VS Code, Gemini and Zed', () => {
  for (const client of ['claude-desktop', 'cursor', 'windsurf', 'cline'] as const) {
    const value = render(client, 'local', { platform: 'win32' }).value;
    assert.equal(value.command, 'cmd', client);
    assert.deepEqual(value.args, ['/c', 'npx', ...LOCAL_ARGS], client);
  }
  assert.deepEqual(render('codex', 'proxy', { platform: 'win32' }).value.args, ['/c', 'npx', ...PROXY_ARGS]);
  // cmd splits an argument with a space (reference §C6): no "Authorization:Bearer ${…}" on Windows.
  const claudeBearer = render('claude-code', 'proxy', { platform: 'win32', auth: 'bearer' });
  assert.deepEqual(claudeBearer.value, {
    type: 'stdio',
    command: 'cmd',
    args: [
      '/c',
      'npx',
      'mcp-remote',
      MCP,
      '--header',
      'Authorization:${SVCCTL_LITERAL_DOLLAR:-$}{SERVICE_AUTH_HEADER}',
    ],
    env: { SERVICE_AUTH_HEADER: 'Bearer ${SERVICE_ACCESS_TOKEN}' },
  });
  assert.deepEqual(claudeBearer.variablesToExport, ['SERVICE_ACCESS_TOKEN']);
  const codexBearer = render('codex', 'proxy', { platform: 'win32', auth: 'bearer' });
  assert.deepEqual(codexBearer.value, {
    command: 'cmd',
    args: ['/c', 'npx', 'mcp-remote', MCP, '--header', 'Authorization:${SERVICE_AUTH_HEADER}'],
    env_vars: ['SERVICE_AUTH_HEADER'],
  });
  assert.deepEqual(codexBearer.variablesToExport, ['SERVICE_AUTH_HEADER']);
  assert.ok(
    codexBearer.notes.some((n) => n.includes('SERVICE_AUTH_HEADER') && n.includes('"Bearer ')),
    codexBearer.notes.join('\n'),
  );
  assert.ok(!codexBearer.notes.some((n) => n.includes('export SERVICE_ACCESS_TOKEN')), codexBearer.notes.join('\n'));
  assert.deepEqual(render('claude-code', 'local', { platform: 'win32' }).value, {
    type: 'stdio',
    command: 'cmd',
    args: ['/c', 'npx', ...LOCAL_ARGS],
    env: env('${SERVICE_EMAIL}', '${SERVICE_PASSWORD}'),
  });
  for (const client of ['vscode', 'gemini', 'zed'] as const)
    assert.equal(render(client, 'local', { platform: 'win32' }).value.command, 'npx', client);
});

test('VS Code --secrets prompt: ${input:…} references and inputs to merge by id', () => {
  const rendered = render('vscode', 'remote', { secrets: 'prompt' });
  assert.deepEqual(rendered.value, {
    type: 'http',
    url: MCP,
    headers: { 'X-Service-Email': '${input:service-email}', 'X-Service-Password': '${input:service-password}' },
  });
  assert.deepEqual(rendered.extraTopLevel, {
    inputs: [
      { type: 'promptString', id: 'service-email', description: 'Email for the service MCP server' },
      {
        type: 'promptString',
        id: 'service-password',
        description: 'Password for the service MCP server',
        password: true,
      },
    ],
  });
  assert.equal(rendered.literalSecrets, false);
  assert.deepEqual(rendered.variablesToExport, []);
});

test('literal secrets, variables to export, refusals', () => {
  assert.equal(render('claude-desktop', 'local').literalSecrets, true);
  assert.deepEqual(render('claude-desktop', 'local').variablesToExport, []);
  assert.equal(render('cursor', 'local').literalSecrets, false);
  assert.deepEqual(render('cursor', 'local').variablesToExport, ['SERVICE_EMAIL', 'SERVICE_PASSWORD']);
  assert.deepEqual(render('codex', 'remote', { auth: 'bearer' }).variablesToExport, ['SERVICE_ACCESS_TOKEN']);
  const usage = (fn: () => unknown) => assert.throws(fn, (e: unknown) => e instanceof CliError && e.exitCode === 2);
  // Checked once, when the request is built (buildEntryRequest); --auth bearer in local mode: test/mcp-print-command.test.ts.
  usage(() => checkSecrets({ client: 'zed' }, 'ref'));
  usage(() => checkSecrets({ client: 'claude-desktop' }, 'ref'));
  usage(() => checkSecrets({ client: 'cursor' }, 'prompt'));
  assert.ok(render('claude-code', 'local', { scope: 'project' }).notes.some((n) => /approve/.test(n)));
});

test('--package: a bare name gets @latest, a pinned spec is kept', () => {
  assert.deepEqual(render('cursor', 'local', { package: '@acme/mcp' }).value.args, ['-y', '@acme/mcp@latest']);
  assert.deepEqual(render('cursor', 'local', { package: 'service-mcp-server@1.2.3' }).value.args, [
    '-y',
    'service-mcp-server@1.2.3',
  ]);
});
