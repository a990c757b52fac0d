/** `svcctl mcp list` through the built CLI: entries pointing at the service, across clients and scopes. */
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const MCP_URL = 'https://acme.example.com/mcp';
let home: string;
let project: string;

async function place(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

before(async () => {
  home = await tempDir('svcctl-mcp-list-');
  project = join(home, 'proj');
  // Written by hand, in the shapes users have (not by svcctl):
  await place(
    join(home, '.cursor', 'mcp.json'),
    JSON.stringify({
      mcpServers: {
        svc: {
          command: 'npx',
          args: ['-y', 'service-mcp-server@latest'],
          env: { SERVICE_BASE_URL: 'https://acme.example.com/api' },
        },
        github: { url: 'https://api.githubcopilot.com/mcp/' },
        gcloud: { command: 'gcloud-mcp', env: { SERVICE_ACCOUNT_JSON: '/x.json' } },
      },
    }),
  );
  await place(
    join(home, '.config', 'Claude', 'claude_desktop_config.json'),
    JSON.stringify({
      mcpServers: {
        bridge: { command: 'npx', args: ['-y', 'mcp-remote', `${MCP_URL}/`, '--header', 'Authorization:${AUTH}'] },
      },
    }),
  );
  await place(
    join(home, '.codex', 'config.toml'),
    '# mine\n[mcp_servers.prod]\nurl = "https://acme.example.com/mcp"\nbearer_token_env_var = "SERVICE_ACCESS_TOKEN"\n',
  );
  await place(
    join(project, '.vscode', 'mcp.json'),
    '{\n  // team servers\n  "servers": {\n    "ops": {"type": "http", "url": "https://other.example.com/mcp", "headers": {"X-Service-Email": "${env:SERVICE_EMAIL}"}},\n  },\n}\n',
  );
  await place(join(home, '.gemini', 'settings.json'), '{ "mcpServers": { "x": }');
});
after(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('mcp list', () => {
  it('--json: every entry pointing at the service, with client, scope, file, name, mode; a broken file is a warning', async () => {
    const result = await runCli(['mcp', 'list', '--json', '--project-dir', project], {
      home,
      env: { SERVICE_MCP_URL: MCP_URL },
    });
    assert.equal(result.code, 0, result.stderr);
    const entries = JSON.parse(result.stdout) as {
      client: string;
      scope: string;
      file: string;
      name: string;
      mode: string;
    }[];
    const sorted = entries
      .map((entry) => `${entry.client} ${entry.scope} ${entry.name} ${entry.mode} ${entry.file}`)
      .sort();
    assert.deepEqual(sorted, [
      `claude-desktop user bridge proxy ${join(home, '.config', 'Claude', 'claude_desktop_config.json')}`,
      `codex user prod remote ${join(home, '.codex', 'config.toml')}`,
      `cursor user svc local ${join(home, '.cursor', 'mcp.json')}`,
      `vscode project ops remote ${join(project, '.vscode', 'mcp.json')}`,
    ]);
    assert.match(result.stderr, /warning: .*\.gemini\/settings\.json:1:\d+: the file does not parse/);
  });

  it('a table without --json; the package override is honoured', async () => {
    const result = await runCli(['mcp', 'list', '--package', 'gcloud-mcp'], { home, env: {} });
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trim().split('\n');
    assert.match(lines[0] ?? '', /^CLIENT\s+SCOPE\s+NAME\s+MODE\s+URL\s+FILE$/);
    assert.ok(
      lines.some((line) => /^cursor\s+user\s+gcloud\s+local\s+/.test(line)),
      result.stdout,
    );
    assert.ok(!lines.some((line) => /\bgithub\b/.test(line)));
  });
});
