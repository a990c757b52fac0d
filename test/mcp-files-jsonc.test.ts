import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'jsonc-parser';
import { CliError } from '../src/core/errors.js';
import { openJsoncDocument } from '../src/formats/jsonc-document.js';
import { changedRegion, fixture, LOCAL_ENTRY } from './helpers/mcp-files.js';

const SERVERS = ['mcpServers', 'service'];

describe('JSON with comments: install edits only our entry', () => {
  for (const [name, path] of [
    ['claude-desktop-config', SERVERS],
    ['zed-settings', ['context_servers', 'service']],
    ['cursor-mcp-crlf', SERVERS],
  ] as const) {
    it(`${name}: matches the hand-written expected file, and uninstall gives the original back`, async () => {
      const original = await fixture(`${name}.json`);
      const expected = await fixture(`${name}.expected.json`);
      const installed = openJsoncDocument(original, name).set(path, LOCAL_ENTRY);
      assert.equal(installed, expected);
      assert.equal(openJsoncDocument(installed, name).remove(path), original);
    });
  }

  it('VS Code mcp.json: comments, trailing commas and the one-line neighbour stay byte-identical', async () => {
    const original = await fixture('vscode-mcp.json');
    const installed = openJsoncDocument(original, 'mcp.json').set(['servers', 'service'], {
      type: 'stdio',
      ...LOCAL_ENTRY,
    });
    // Inserted after the last server's line (which ends in a trailing comma), in the same style.
    const at = original.indexOf('\n  },\n}');
    const entry = [
      '    "service": {',
      '      "type": "stdio",',
      '      "command": "npx",',
      '      "args": [',
      '        "-y",',
      '        "service-mcp-server@latest"',
      '      ],',
      '      "env": {',
      '        "SERVICE_BASE_URL": "https://acme.example.com/api"',
      '      }',
      '    },',
    ].join('\n');
    assert.equal(installed, `${original.slice(0, at)}\n${entry}${original.slice(at)}`);
    assert.deepEqual(parse(installed).servers.service, { type: 'stdio', ...LOCAL_ENTRY });
    assert.equal(openJsoncDocument(installed, 'mcp.json').remove(['servers', 'service']), original);
  });

  it('a file without a final newline keeps having none (tabs kept)', async () => {
    const original = await fixture('gemini-settings-no-final-newline.json');
    const installed = openJsoncDocument(original, 'settings.json').set(SERVERS, LOCAL_ENTRY);
    assert.ok(installed.endsWith('\n\t}\n}'));
    assert.match(installed, /\n\t\t"service": \{\n\t\t\t"command": "npx",/);
    const { removed } = changedRegion(original, installed);
    assert.equal(removed, '');
    assert.equal(openJsoncDocument(installed, 'settings.json').remove(SERVERS), original);
  });

  it('a differing entry is replaced whole: no stale keys survive', () => {
    const text = '{\n  "mcpServers": {\n    "service": { "url": "https://old/mcp", "headers": { "X": "1" } }\n  }\n}\n';
    const replaced = openJsoncDocument(text, 'f').set(SERVERS, LOCAL_ENTRY);
    assert.deepEqual(parse(replaced).mcpServers.service, LOCAL_ENTRY);
  });

  it('creates the parents that are missing, and a blank file gets 2-space JSON with a final newline', () => {
    const added = openJsoncDocument('{\n  "theme": "x" // mine\n}\n', 'f').set(
      ['projects', '/p', 'mcpServers', 'service'],
      { command: 'npx' },
    );
    assert.equal(
      added,
      '{\n  "theme": "x", // mine\n  "projects": {\n    "/p": {\n      "mcpServers": {\n        "service": {\n          "command": "npx"\n        }\n      }\n    }\n  }\n}\n',
    );
    assert.equal(
      openJsoncDocument('  \n', 'f').set(SERVERS, { command: 'npx' }),
      '{\n  "mcpServers": {\n    "service": {\n      "command": "npx"\n    }\n  }\n}\n',
    );
  });

  it('a compact (minified) file stays compact', () => {
    const text = '{"mcpServers":{"a":{"command":"x"}},"numStartups":42}';
    const installed = openJsoncDocument(text, 'f').set(SERVERS, { command: 'npx' });
    assert.equal(installed, '{"mcpServers":{"a":{"command":"x"}, "service": {"command":"npx"}},"numStartups":42}');
    assert.equal(openJsoncDocument(installed, 'f').remove(SERVERS), text);
  });

  it('removing the only server leaves an empty object', () => {
    const text = '{\n  "mcpServers": {\n    "service": {\n      "command": "npx"\n    }\n  },\n  "x": 1\n}\n';
    assert.equal(openJsoncDocument(text, 'f').remove(SERVERS), '{\n  "mcpServers": {},\n  "x": 1\n}\n');
  });

  it('a file that does not parse is refused with exit 7 and line:column', async () => {
    const text = await fixture('broken.json');
    assert.throws(
      () => openJsoncDocument(text, 'broken.json'),
      (error: unknown) => {
        assert.ok(error instanceof CliError);
        assert.equal(error.exitCode, 7);
        assert.match(error.message, /^broken\.json:5:7: the file does not parse \(a comma is missing\)/);
        return true;
      },
    );
  });

  it('refuses a file whose top level or servers key is not an object', () => {
    assert.throws(() => openJsoncDocument('[1]', 'f'), /top level is not a JSON object/);
    assert.throws(
      () => openJsoncDocument('{"mcpServers": []}', 'f').set(SERVERS, {}),
      /"mcpServers" is not a JSON object/,
    );
  });

  it('VS Code inputs are added by id, once', () => {
    const text = '{\n  "inputs": [\n    // mine\n    {"id": "a", "type": "promptString"},\n  ],\n  "servers": {}\n}\n';
    const input = { type: 'promptString', id: 'service-password', description: 'Password', password: true };
    const once = openJsoncDocument(text, 'f').upsertById('inputs', input);
    assert.equal(changedRegion(text, once).removed, '');
    assert.deepEqual(parse(once).inputs, [{ id: 'a', type: 'promptString' }, input]);
    assert.equal(openJsoncDocument(once, 'f').upsertById('inputs', input), once);
  });
});
