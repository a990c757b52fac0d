/**
 * Policies that govern MCP servers (docs/mcp.md, "Policies"): Claude Code's managed settings and managed-mcp.json,
 * Copilot's managed settings for VS Code. The system folders are stood for by SVCCTL_POLICY_DIR under the temp HOME.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import { runCli, type RunResult } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const BASE_URL = 'https://acme.example.com/api';
// What svcctl writes for a local-mode entry (checked against the written file by the allowlist test).
const COMMAND = ['npx', '-y', 'service-mcp-server@latest'];
let home: string;
let policyDir: string;

beforeEach(async () => {
  if (home) await rm(home, { recursive: true, force: true });
  home = await tempDir('svcctl-policy-');
  policyDir = join(home, 'policy');
});
after(async () => {
  await rm(home, { recursive: true, force: true });
});

const run = (args: string[]): Promise<RunResult> =>
  runCli(['mcp', ...args], { home, env: { SERVICE_BASE_URL: BASE_URL, SVCCTL_POLICY_DIR: policyDir } });

async function policy(family: string, file: string, value: unknown): Promise<string> {
  const path = join(policyDir, family, file);
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

const claudeFile = (): string => join(home, '.claude.json');
const exists = (file: string): Promise<boolean> =>
  readFile(file).then(
    () => true,
    () => false,
  );

describe('mcp install under a policy', () => {
  it('a denial by name: exit 7, the file and the rule named, nothing written; --force does not override it', async () => {
    const file = await policy('ClaudeCode', 'managed-settings.json', {
      deniedMcpServers: [{ serverName: 'service' }],
    });
    for (const extra of [[], ['--force']]) {
      const result = await run(['install', '--client', 'claude-code', ...extra]);
      assert.equal(result.code, 7, result.stderr);
      assert.ok(result.stderr.includes(file), result.stderr);
      assert.match(result.stderr, /deniedMcpServers entry \{"serverName":"service"\}/);
      assert.match(result.stderr, /--force does not override it/);
      assert.equal(await exists(claudeFile()), false);
    }
    // Another name is not denied.
    assert.equal((await run(['install', '--client', 'claude-code', '--name', 'ops'])).code, 0);
  });

  it('an allowlist of commands (a managed-settings.d file): another command is refused, the exact one let in', async () => {
    const file = await policy('ClaudeCode', 'managed-settings.d/10-mcp.json', {
      allowedMcpServers: [{ serverName: 'service' }, { serverCommand: ['npx', '-y', 'other-server'] }],
    });
    const refused = await run(['install', '--client', 'claude-code']);
    assert.equal(refused.code, 7, refused.stderr);
    assert.ok(refused.stderr.includes(file), refused.stderr);
    // With serverCommand entries in the list, a local server must match one of them: its name does not let it in.
    assert.match(refused.stderr, /no allowedMcpServers entry matches it/);
    await policy('ClaudeCode', 'managed-settings.d/10-mcp.json', { allowedMcpServers: [{ serverCommand: COMMAND }] });
    const allowed = await run(['install', '--client', 'claude-code']);
    assert.equal(allowed.code, 0, allowed.stderr);
    const entry = JSON.parse(await readFile(claudeFile(), 'utf8')).mcpServers.service;
    assert.deepEqual([entry.command, ...entry.args], COMMAND);
  });

  it("a soft allowlist: the user's own settings widen it, unless allowManagedMcpServersOnly", async () => {
    const managed = { allowedMcpServers: [{ serverName: 'github' }] };
    await policy('ClaudeCode', 'managed-settings.json', managed);
    assert.equal((await run(['install', '--client', 'claude-code'])).code, 7);
    await mkdir(join(home, '.claude'), { recursive: true });
    await writeFile(
      join(home, '.claude', 'settings.json'),
      JSON.stringify({ allowedMcpServers: [{ serverName: 'service' }] }),
    );
    const widened = await run(['install', '--client', 'claude-code']);
    assert.equal(widened.code, 0, widened.stderr);
    await policy('ClaudeCode', 'managed-settings.json', { ...managed, allowManagedMcpServersOnly: true });
    const strict = await run(['install', '--client', 'claude-code', '--force']);
    assert.equal(strict.code, 7, strict.stderr);
    assert.match(strict.stderr, /no allowedMcpServers entry matches it/);
  });

  it('an allowlist of URLs: a remote entry on a matching URL is let in (the host in any case), one elsewhere refused', async () => {
    await policy('ClaudeCode', 'managed-settings.json', {
      allowedMcpServers: [{ serverUrl: 'https://ACME.example.com/*' }],
    });
    const remote = ['install', '--client', 'claude-code', '--mode', 'remote', '--auth', 'bearer'];
    const allowed = await run(remote);
    assert.equal(allowed.code, 0, allowed.stderr);
    const elsewhere = await run([...remote, '--force', '--base-url', 'https://other.example.org/api']);
    assert.equal(elsewhere.code, 7, elsewhere.stderr);
    assert.match(elsewhere.stderr, /no allowedMcpServers entry matches it/);
  });

  it('managed-mcp.json takes exclusive control: exit 7 for any entry', async () => {
    const file = await policy('ClaudeCode', 'managed-mcp.json', { mcpServers: {} });
    const result = await run(['install', '--client', 'claude-code', '--dry-run']);
    assert.equal(result.code, 7, result.stderr);
    assert.ok(result.stderr.includes(file), result.stderr);
    assert.match(result.stderr, /exclusive control/);
  });

  it('a URL glob in a deny list blocks a remote entry; the same glob elsewhere does not', async () => {
    await policy('ClaudeCode', 'managed-settings.json', {
      deniedMcpServers: [{ serverUrl: 'https://*.example.com/*' }],
    });
    const remote = await run(['install', '--client', 'claude-code', '--mode', 'remote', '--auth', 'bearer']);
    assert.equal(remote.code, 7, remote.stderr);
    assert.match(remote.stderr, /deniedMcpServers entry \{"serverUrl":"https:\/\/\*\.example\.com\/\*"\}/);
    // The local entry has no URL to match.
    assert.equal((await run(['install', '--client', 'claude-code'])).code, 0);
  });

  it("Copilot's managed settings govern VS Code; other clients are not governed by them", async () => {
    const file = await policy('GitHubCopilot', 'managed-settings.json', {
      allowedMcpServers: [{ serverUrl: 'https://mcp.other.example/*' }],
    });
    const result = await run(['install', '--client', 'vscode']);
    assert.equal(result.code, 7, result.stderr);
    assert.ok(result.stderr.includes(file), result.stderr);
    assert.equal((await run(['install', '--client', 'cursor'])).code, 0);
  });

  it('a policy file that does not parse blocks: what the client allows cannot be told', async () => {
    await policy('ClaudeCode', 'managed-settings.json', '{ "deniedMcpServers": [ ');
    const result = await run(['install', '--client', 'claude-code']);
    assert.equal(result.code, 7, result.stderr);
    assert.match(result.stderr, /does not parse/);
  });

  it('a policy file over 16 MiB blocks, refused by its size (issue 47: files read whole are bounded)', async () => {
    const file = await policy('ClaudeCode', 'managed-settings.json', '');
    await truncate(file, 17 * 1024 * 1024); // sparse: only its size is looked at
    const result = await run(['install', '--client', 'claude-code']);
    assert.equal(result.code, 7, result.stderr);
    assert.match(result.stderr, /the policy file is 17 MiB, over the limit of 16 MiB, so what the client allows/);
  });

  it('a FIFO as a policy file blocks at once, named, instead of waiting for a writer for ever', async () => {
    const file = join(policyDir, 'ClaudeCode', 'managed-mcp.json');
    await mkdir(join(file, '..'), { recursive: true });
    execFileSync('mkfifo', [file]);
    const result = await run(['install', '--client', 'claude-code']);
    assert.equal(result.code, 7, result.stderr);
    assert.match(result.stderr, /the policy file is a named pipe \(FIFO\), not a regular file/);
  });
});

describe('mcp doctor under a policy', () => {
  it('an entry installed before the policy came: the failing policy check, exit 8, and the server not started', async () => {
    assert.equal((await run(['install', '--client', 'claude-code'])).code, 0);
    const file = await policy('ClaudeCode', 'managed-settings.json', {
      deniedMcpServers: [{ serverCommand: COMMAND }],
    });
    const result = await run(['doctor', '--client', 'claude-code']);
    assert.equal(result.code, 8, result.stdout + result.stderr);
    const line = result.stdout.split('\n').find((text) => text.startsWith('✗ policy:')) ?? '';
    assert.ok(line.includes(file), result.stdout);
    assert.ok(line.includes(`deniedMcpServers entry {"serverCommand":${JSON.stringify(COMMAND)}}`), line);
    assert.doesNotMatch(result.stdout, /initialize|runner/);
    // status --check runs the same checks over every entry.
    const status = await runCli(['status', '--check'], {
      home,
      env: { SERVICE_BASE_URL: BASE_URL, SVCCTL_POLICY_DIR: policyDir },
    });
    assert.ok(
      `${status.stdout}${status.stderr}`.includes(`policy: the policy in ${file} blocks 'service'`),
      status.stdout + status.stderr,
    );
  });
});
