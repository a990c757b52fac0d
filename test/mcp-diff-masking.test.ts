/**
 * Every diff svcctl prints masks the user's other entries as `mcp get` shows them (issue 47): `mcp install
 * --dry-run`, `mcp sync --dry-run` and `mcp sync --check --json` (the compliance report that lands in CI logs).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { placeFile, runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const QUERY_SECRET = 'sk_live_q1w2e3r4t5y6';
const HEADER_SECRET = 'sk_live_hdr9z8y7x6';
const ARG_SECRET = 'tok_arg_5k4j3h2g1';

// Another server of the user's, written by hand: its secrets sit in a URL's query and a header.
const CURSOR_FILE = `{
  "mcpServers": {
    "tools": {
      "args": ["mcp-remote", "https://h.example.com/x?token=${ARG_SECRET}"],
      "headers": { "X-Api-Key": "${HEADER_SECRET}" },
      "url": "https://tools.example.com/mcp?workspace=w1&api_key=${QUERY_SECRET}"
    }
  }
}
`;

const DECLARATION = `clients = ["cursor"]
scope = "user"

[[server]]
name = "ops"
base_url = "https://acme.example.com/api"
`;

async function home(): Promise<string> {
  const dir = await tempDir('svcctl-diff-mask-');
  await placeFile(dir, '.cursor/mcp.json', CURSOR_FILE);
  return dir;
}

function assertMasked(text: string, what: string): void {
  for (const secret of [QUERY_SECRET, HEADER_SECRET, ARG_SECRET])
    assert.ok(!text.includes(secret), `${what} shows ${secret}:\n${text}`);
  // The diff did show the other entry, masked as mcp get masks it: the key and the plain query value stay.
  assert.match(text, /workspace=w1&api_key=\*\*\*/, `${what}:\n${text}`);
  assert.match(text, /\?token=\*\*\*/, `${what}:\n${text}`);
}

describe('diffs mask other entries as mcp get does', () => {
  it('mcp get masks the other entry (the reference the diffs are held to)', async () => {
    const dir = await home();
    const result = await runCli(['mcp', 'get', '--client', 'cursor', '--name', 'tools'], { home: dir });
    assert.equal(result.code, 0, result.stderr);
    assertMasked(result.stdout, 'mcp get');
  });

  it('mcp install --dry-run', async () => {
    const dir = await home();
    const args = ['mcp', 'install', '--client', 'cursor', '--base-url', 'https://acme.example.com/api', '--dry-run'];
    const result = await runCli(args, { home: dir });
    assert.equal(result.code, 0, result.stderr);
    assertMasked(result.stdout, 'install --dry-run');
  });

  it('mcp sync --dry-run and sync --check --json', async () => {
    const dir = await home();
    const file = await placeFile(dir, 'team/svcctl-mcp.toml', DECLARATION);
    const dry = await runCli(['mcp', 'sync', '--file', file, '--dry-run'], { home: dir, cwd: dir });
    assert.equal(dry.code, 0, dry.stderr);
    assertMasked(dry.stdout, 'sync --dry-run');
    const check = await runCli(['--json', 'mcp', 'sync', '--file', file, '--check'], { home: dir, cwd: dir });
    assert.equal(check.code, 8, check.stderr);
    const diffs = (JSON.parse(check.stdout) as { clients: { diff: string | null }[] }).clients.map((c) => c.diff);
    assertMasked(diffs.join('\n'), 'sync --check --json');
  });
});
