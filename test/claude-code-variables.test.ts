/**
 * Claude Code expands `${VAR}` in every scope (user and local in ~/.claude.json, project in .mcp.json):
 * checked with the real Claude Code 2.1.332 against `svcctl dev` (docs/real-clients.md). So a remote entry
 * keeps its secrets by reference in every scope, and the install says nothing doubtful about it.
 * In-process, temp HOME.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const BASE = 'http://127.0.0.1:9/api';
const START_NOTE = 'Claude Code: Start a new Claude Code session (or run /mcp) to load the server.';

function claudeCodeLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('Claude Code:'));
}

describe('claude-code: ${VAR} references in user and local scope', () => {
  for (const scope of ['user', 'local'] as const) {
    it(`${scope} scope: the password stays a reference and the only note is how to load the server`, async () => {
      const home = await tempDir('svcctl-cc-vars-');
      const project = await tempDir('svcctl-cc-vars-project-');
      const install = await runCli(
        ['mcp', 'install', '--client', 'claude-code', '--scope', scope, '--mode', 'remote', '--base-url', BASE],
        { home, cwd: project, env: { SERVICE_PASSWORD: 'pw-never-written' } },
      );
      assert.equal(install.code, 0, install.stderr);
      assert.match(install.stderr, new RegExp(`✓ Claude Code \\(${scope} scope\\): created `));
      assert.deepEqual(claudeCodeLines(install.stderr), [START_NOTE]);
      assert.match(install.stderr, /reads SERVICE_EMAIL, SERVICE_PASSWORD from the environment/);
      const file = await readFile(join(home, '.claude.json'), 'utf8');
      assert.doesNotMatch(file, /pw-never-written/);
      const doc = JSON.parse(file);
      const servers =
        scope === 'user' ? doc.mcpServers : Object.values<{ mcpServers: unknown }>(doc.projects)[0]?.mcpServers;
      assert.deepEqual(servers, {
        service: {
          type: 'http',
          url: 'http://127.0.0.1:9/mcp',
          headers: { 'X-Service-Email': '${SERVICE_EMAIL}', 'X-Service-Password': '${SERVICE_PASSWORD}' },
        },
      });
    });
  }

  it('user scope, bearer: Authorization by reference, and no note suggests another scope or literal secrets', async () => {
    const home = await tempDir('svcctl-cc-vars-');
    const printed = await runCli(
      [
        '--json',
        'mcp',
        'print',
        '--client',
        'claude-code',
        '--mode',
        'remote',
        '--auth',
        'bearer',
        '--token',
        'static',
      ],
      { home, env: { SERVICE_BASE_URL: BASE, SERVICE_ACCESS_TOKEN: 'a.b.c' } },
    );
    assert.equal(printed.code, 0, printed.stderr);
    const json = JSON.parse(printed.stdout);
    assert.equal(json.secrets, 'ref');
    assert.deepEqual(json.entry.headers, { Authorization: 'Bearer ${SERVICE_ACCESS_TOKEN}' });
    assert.deepEqual(json.variables_to_export, ['SERVICE_ACCESS_TOKEN']);
    for (const note of json.notes as string[])
      assert.doesNotMatch(note, /--scope project|--secrets literal|no credentials/);
  });
});
