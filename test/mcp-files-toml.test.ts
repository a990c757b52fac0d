import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'smol-toml';
import { CliError } from '../src/core/errors.js';
import { openTomlDocument } from '../src/formats/toml-document.js';
import { scanTomlHeaders } from '../src/formats/toml-scan.js';
import { fixture, LOCAL_ENTRY } from './helpers/mcp-files.js';

const PATH = ['mcp_servers', 'service'];

describe('TOML: only [mcp_servers.<name>] and its sub-tables change', () => {
  it('Codex config.toml: appended after one blank line; the rest byte-identical; uninstall gives it back', async () => {
    const original = await fixture('codex-config.toml');
    const installed = openTomlDocument(original, 'config.toml').set(PATH, LOCAL_ENTRY);
    assert.equal(installed, await fixture('codex-config.expected.toml'));
    assert.equal(openTomlDocument(installed, 'config.toml').remove(PATH), original);
  });

  it('replaces our tables in place, whole, wherever they are, and leaves the neighbours and their comments', () => {
    const text = [
      'model = "o3"',
      '',
      '[mcp_servers.service]',
      'url = "https://old.example.com/mcp"',
      'bearer_token_env_var = "OLD"',
      '',
      '# the other one',
      '[mcp_servers.other]',
      'command = "uvx"',
      '',
      '[mcp_servers.service.http_headers]',
      'X-Old = "1"',
      '',
      '[tui]',
      'notifications = true',
      '',
    ].join('\n');
    const replaced = openTomlDocument(text, 'c.toml').set(PATH, LOCAL_ENTRY);
    assert.equal(
      replaced,
      [
        'model = "o3"',
        '',
        '[mcp_servers.service]',
        'command = "npx"',
        'args = [ "-y", "service-mcp-server@latest" ]',
        '',
        '[mcp_servers.service.env]',
        'SERVICE_BASE_URL = "https://acme.example.com/api"',
        '',
        '# the other one',
        '[mcp_servers.other]',
        'command = "uvx"',
        '',
        '[tui]',
        'notifications = true',
        '',
      ].join('\n'),
    );
    assert.deepEqual(JSON.parse(JSON.stringify(parse(replaced).mcp_servers)), {
      service: LOCAL_ENTRY,
      other: { command: 'uvx' },
    });
  });

  it('keeps CRLF line endings and a missing final newline of the rest', () => {
    const text = 'model = "o3"\r\n\r\n[tui]\r\nnotifications = true';
    const installed = openTomlDocument(text, 'c.toml').set(PATH, { command: 'npx' });
    assert.equal(
      installed,
      'model = "o3"\r\n\r\n[tui]\r\nnotifications = true\r\n\r\n[mcp_servers.service]\r\ncommand = "npx"\r\n',
    );
    assert.equal(
      openTomlDocument(installed, 'c.toml').remove(PATH),
      'model = "o3"\r\n\r\n[tui]\r\nnotifications = true\r\n',
    );
  });

  it('header-like lines inside multi-line strings and arrays are not headers', () => {
    const text = 'a = """\n[mcp_servers.service]\n"""\nb = [\n  [ "x" ],\n]\n[mcp_servers.service]\ncommand = "x"\n';
    assert.deepEqual(
      scanTomlHeaders(text).map((header) => header.path),
      [['mcp_servers', 'service']],
    );
    const removed = openTomlDocument(text, 'c.toml').remove(PATH);
    assert.equal(removed, 'a = """\n[mcp_servers.service]\n"""\nb = [\n  [ "x" ],\n]\n');
  });

  it('quoted keys in headers are understood', () => {
    const text =
      '[mcp_servers."service"]\ncommand = "x"\n\n[ mcp_servers . \'service\' . env ]\nA = "1"\n\n[other]\nk = 1\n';
    assert.equal(openTomlDocument(text, 'c.toml').remove(PATH), '[other]\nk = 1\n');
  });

  it('an entry written as an inline table is refused, not rewritten', () => {
    const text = '[mcp_servers]\nservice = { command = "x" }\n';
    assert.throws(
      () => openTomlDocument(text, 'c.toml').set(PATH, LOCAL_ENTRY),
      (error: unknown) => {
        assert.ok(error instanceof CliError);
        assert.equal(error.exitCode, 7);
        assert.match(error.message, /inline table or dotted keys/);
        return true;
      },
    );
  });

  it('a file that does not parse is refused with exit 7 and line:column', async () => {
    assert.throws(
      () => openTomlDocument('model = "x"\n[mcp_servers.service\ncommand = "npx"\n', 'broken.toml'),
      (error: unknown) => {
        assert.ok(error instanceof CliError);
        assert.equal(error.exitCode, 7);
        assert.match(error.message, /^broken\.toml:2:\d+: the file does not parse/);
        return true;
      },
    );
  });

  it('an empty file gets just our tables', () => {
    assert.equal(
      openTomlDocument('', 'c.toml').set(PATH, { command: 'npx', env: { A: 'b' } }),
      '[mcp_servers.service]\ncommand = "npx"\n\n[mcp_servers.service.env]\nA = "b"\n',
    );
  });
});
