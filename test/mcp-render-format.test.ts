/**
 * `--format mcpServers|servers|toml`: exactly the generic shapes of the service
 * docs (section 4.5) and the contract (section 4), written by hand.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'smol-toml';
import { CliError } from '../src/core/errors.js';
import { checkSecrets, renderEntry } from '../src/mcp/clients/render-entry.js';
import { entryDocumentText } from '../src/mcp/render/document.js';
import type { EntryRequest, GenericFormat, Mode } from '../src/mcp/types.js';

const req = (format: GenericFormat, mode: Mode, extra: Partial<EntryRequest> = {}): EntryRequest => ({
  target: { format },
  mode,
  auth: 'password',
  name: 'service',
  scope: 'user',
  baseUrl: 'https://acme.example.com/api',
  mcpUrl: 'https://acme.example.com/mcp',
  package: 'service-mcp-server',
  secrets: 'literal',
  literals: { email: 'ann@acme.example', password: 'pw', token: 'tok' },
  platform: 'win32', // generic shapes are never adapted (no cmd /c)
  ...extra,
});

test('generic local, remote and proxy shapes', () => {
  assert.deepEqual(renderEntry(req('mcpServers', 'local')).value, {
    command: 'npx',
    args: ['-y', 'service-mcp-server@latest'],
    env: {
      SERVICE_EMAIL: 'ann@acme.example',
      SERVICE_PASSWORD: 'pw',
      SERVICE_BASE_URL: 'https://acme.example.com/api',
    },
  });
  assert.deepEqual(renderEntry(req('servers', 'remote')).value, {
    type: 'http',
    url: 'https://acme.example.com/mcp',
    headers: { 'X-Service-Email': 'ann@acme.example', 'X-Service-Password': 'pw' },
  });
  assert.deepEqual(renderEntry(req('mcpServers', 'proxy')).value, {
    command: 'npx',
    args: [
      'mcp-remote',
      'https://acme.example.com/mcp',
      '--header',
      'X-Service-Email: ann@acme.example',
      '--header',
      'X-Service-Password: pw',
    ],
  });
  assert.deepEqual(renderEntry(req('mcpServers', 'proxy', { auth: 'bearer' })).value, {
    command: 'npx',
    args: ['mcp-remote', 'https://acme.example.com/mcp', '--header', 'Authorization: Bearer tok'],
  });
  assert.deepEqual(renderEntry(req('mcpServers', 'local', { secrets: 'ref' })).value.env, {
    SERVICE_EMAIL: '${SERVICE_EMAIL}',
    SERVICE_PASSWORD: '${SERVICE_PASSWORD}',
    SERVICE_BASE_URL: 'https://acme.example.com/api',
  });
});

test('TOML: [mcp_servers.<name>] with literal values; --secrets ref is refused', async () => {
  const rendered = renderEntry(req('toml', 'local'));
  const text = await entryDocumentText(['mcp_servers', 'service'], rendered, 'toml');
  assert.match(text, /^\[mcp_servers\.service\]$/m);
  assert.deepEqual(JSON.parse(JSON.stringify(parse(text))), {
    mcp_servers: {
      service: {
        command: 'npx',
        args: ['-y', 'service-mcp-server@latest'],
        env: {
          SERVICE_EMAIL: 'ann@acme.example',
          SERVICE_PASSWORD: 'pw',
          SERVICE_BASE_URL: 'https://acme.example.com/api',
        },
      },
    },
  });
  assert.equal(rendered.literalSecrets, true);
  assert.throws(
    () => checkSecrets({ format: 'toml' }, 'ref'),
    (e: unknown) => e instanceof CliError && e.exitCode === 2,
  );
});
