/**
 * Small things a new user notices: client ids without case, a refusal that gives the suggestion and not
 * 25 ids, an empty --ndjson stream that says nothing was read, `mcp uninstall --all`. In-process, temp HOME.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { startRecordingServer } from './helpers/recording-server.js';
import { tempDir } from './helpers/temp-dirs.js';

describe('small things', () => {
  it('--client Cursor is cursor', async () => {
    const print = await runCli([
      'mcp',
      'print',
      '--client',
      'Cursor',
      '--mode',
      'remote',
      '--base-url',
      'https://acme.example.com/api',
    ]);
    assert.equal(print.code, 0, print.stderr);
    assert.match(print.stdout, /"url": "https:\/\/acme\.example\.com\/mcp"/);
  });

  it('an unknown client id: the suggestion, not the 25 ids', async () => {
    const refused = await runCli(['mcp', 'print', '--client', 'cursr']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /hint: did you mean cursor\?/);
    assert.ok(!refused.stderr.includes('claude-desktop'), refused.stderr);
    assert.match(refused.stderr, /--help lists them/);
  });

  it('mcp uninstall --all removes the entry from every client and scope that has one', async () => {
    const home = await tempDir('svcctl-small-');
    for (const [client, scope] of [
      ['cursor', 'user'],
      ['claude-code', 'project'],
    ]) {
      const install = await runCli(
        [
          'mcp',
          'install',
          '--client',
          client!,
          '--scope',
          scope!,
          '--mode',
          'remote',
          '--base-url',
          'http://127.0.0.1:9/api',
        ],
        { home },
      );
      assert.equal(install.code, 0, install.stderr);
    }
    assert.equal(JSON.parse((await runCli(['--json', 'mcp', 'list'], { home })).stdout).length, 2);
    const all = await runCli(['mcp', 'uninstall', '--all'], { home });
    assert.equal(all.code, 0, all.stderr);
    assert.deepEqual(JSON.parse((await runCli(['--json', 'mcp', 'list'], { home })).stdout), []);
    const again = await runCli(['mcp', 'uninstall', '--all'], { home });
    assert.match(again.stderr, /nothing to remove/);
  });

  it('an empty --ndjson stream: sent 0, exit 0, and a warning that no event was read', async () => {
    const server = await startRecordingServer(() => ({ status: 202, body: '{"id":"evt_1"}' }));
    try {
      const env = { SERVICE_BASE_URL: `${server.origin}/api`, SERVICE_INGEST_TOKEN: 'ingest-token-1' };
      const empty = await runCli(['event', 'send', '--ndjson', '-'], { env, input: '\n\n' });
      assert.equal(empty.code, 0, empty.stderr);
      assert.match(empty.stderr, /warning: no event was read from stdin/);
      assert.equal(server.requests.length, 0);
    } finally {
      await server.close();
    }
  });
});
