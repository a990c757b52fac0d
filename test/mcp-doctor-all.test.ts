/**
 * `svcctl mcp doctor --all`: every entry svcctl manages, one line each, a summary, --json, exit 8 when one fails.
 * One entry passes (the fake stdio server, test/fixtures/fake-mcp-server), one is blocked by a policy (Copilot's
 * managed settings under SVCCTL_POLICY_DIR), and one is a project's entry svcctl did not write: it is skipped and
 * its command never runs (it would leave a marker file).
 */
import assert from 'node:assert/strict';
import { access, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT, runCli, type RunResult } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const SERVER_DIR = join(ROOT, 'test', 'fixtures', 'fake-mcp-server');
const BASE_URL = 'http://127.0.0.1:9/api';
let home: string;
let project: string;
let marker: string;
let env: Record<string, string>;

const run = (args: string[], extra: Record<string, string> = {}): Promise<RunResult> =>
  runCli(['mcp', ...args], { home, cwd: project, env: { ...env, ...extra } });
const exists = (file: string): Promise<boolean> =>
  access(file).then(
    () => true,
    () => false,
  );

before(async () => {
  home = await tempDir('svcctl-doctor-all-');
  project = join(home, 'project');
  marker = join(home, 'ran-the-project-entry');
  await mkdir(project, { recursive: true });
  env = {
    SERVICE_EMAIL: 'all@example.com',
    SERVICE_PASSWORD: 'doctor-all-pw',
    SERVICE_BASE_URL: BASE_URL,
    SVCCTL_POLICY_DIR: join(home, 'policy'),
  };
  const user = await run(['install', '--client', 'claude-code', '--package', SERVER_DIR]);
  assert.equal(user.code, 0, user.stderr);
  const vscode = await run(['install', '--client', 'vscode', '--package', SERVER_DIR]);
  assert.equal(vscode.code, 0, vscode.stderr);
  // Blocked after it was written: the client would now refuse it.
  await mkdir(join(home, 'policy', 'GitHubCopilot'), { recursive: true });
  await writeFile(
    join(home, 'policy', 'GitHubCopilot', 'managed-settings.json'),
    JSON.stringify({ deniedMcpServers: [{ serverName: 'service' }] }),
  );
  // A cloned project's entry: listed (it names the service's variable), never written by svcctl.
  const script = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`;
  const entry = { command: process.execPath, args: ['-e', script], env: { SERVICE_BASE_URL: BASE_URL } };
  await writeFile(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { service: entry } }, null, 2));
});
after(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('mcp doctor --all', () => {
  it('one line per entry (the first failing check), a summary, exit 8; the project entry skipped, not run', async () => {
    const result = await run(['doctor', '--all', '--package', SERVER_DIR]);
    assert.equal(result.code, 8, result.stdout + result.stderr);
    const lines = result.stdout.trim().split('\n');
    assert.equal(lines.length, 3, result.stdout);
    assert.match(
      lines.find((line) => line.includes('claude-code (user)')) ?? '',
      /^✓ claude-code \(user\) 'service': all \d+ checks passed$/,
    );
    const vscode = lines.find((line) => line.includes('vscode (user)')) ?? '';
    assert.match(
      vscode,
      /^✗ vscode \(user\) 'service': policy: the policy in .*GitHubCopilot.managed-settings\.json blocks 'service': deniedMcpServers entry \{"serverName":"service"\}$/,
    );
    const skipped = lines.find((line) => line.includes('claude-code (project)')) ?? '';
    assert.match(
      skipped,
      /^- claude-code \(project\) 'service': skipped: .*svcctl mcp doctor --client claude-code --scope project --name service$/,
    );
    assert.match(result.stderr, /3 entries checked: 1 passed, 1 failed, 1 skipped/);
    assert.equal(await exists(marker), false, 'the project entry was started');
  });

  it('--json: every entry with its status, first failure and report, and the summary', async () => {
    const result = await run(['--json', 'doctor', '--all', '--package', SERVER_DIR]);
    assert.equal(result.code, 8, result.stderr);
    const answer = JSON.parse(result.stdout) as {
      entries: Array<{ client: string; scope: string; status: string; first_failure: { check: string } | null }>;
      summary: Record<string, number>;
    };
    const statuses = answer.entries.map((entry) => `${entry.client}/${entry.scope}:${entry.status}`).sort();
    assert.deepEqual(statuses, ['claude-code/project:skipped', 'claude-code/user:passed', 'vscode/user:failed']);
    const failed = answer.entries.find((entry) => entry.status === 'failed');
    assert.equal(failed?.first_failure?.check, 'policy');
    assert.equal(answer.entries.find((entry) => entry.status === 'skipped')?.first_failure?.check, 'trust');
    assert.deepEqual(answer.summary, { checked: 3, passed: 1, failed: 1, skipped: 1 });
    assert.equal(await exists(marker), false);
  });

  it('exit 0 when nothing fails; --all refuses the flags that choose one entry (exit 2)', async () => {
    await rm(join(home, 'policy'), { recursive: true, force: true });
    const result = await run(['doctor', '--all', '--package', SERVER_DIR]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stderr, /3 entries checked: 2 passed, 0 failed, 1 skipped/);
    const refused = await run(['doctor', '--all', '--client', 'cursor']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--all checks every entry: it takes no --client/);
    // The marker is what the skipped entry would leave: checked alone with --trust-project, it does run.
    await run(['doctor', '--client', 'claude-code', '--scope', 'project', '--trust-project']);
    assert.equal(await exists(marker), true);
  });
});
