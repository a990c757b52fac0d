/**
 * The command svcctl writes for Claude Desktop when npx comes from nvm, run for real the way such a client starts
 * it: no shell, no profile, the session's PATH with the entry's env over it. The fake nvm layout links the real npm
 * and a `node` that logs each script it runs, so the log shows that both npx and the package's own
 * `#!/usr/bin/env node` bin ran on nvm's node (this machine's /usr/bin may hold another node).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { ROOT, runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const SERVER_DIR = join(ROOT, 'test', 'fixtures', 'fake-mcp-server');
// Where a Unix Node keeps its npm: <prefix>/bin/node and <prefix>/lib/node_modules/npm (nvm's layout too).
const NPM_DIR = join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm');
const SESSION_PATH: Record<string, string> = {
  darwin: '/usr/bin:/bin:/usr/sbin:/sbin',
  linux: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
};
const sessionPath = SESSION_PATH[process.platform];
const CREDS = {
  SERVICE_EMAIL: 'gui@example.com',
  SERVICE_PASSWORD: 'gui-e2e-Secret',
  SERVICE_BASE_URL: 'http://127.0.0.1:9/api',
};

async function nvmLayout(home: string, log: string): Promise<string> {
  const prefix = join(home, '.nvm', 'versions', 'node', 'v99.0.0');
  const bin = join(prefix, 'bin');
  await mkdir(join(prefix, 'lib', 'node_modules'), { recursive: true });
  await mkdir(bin, { recursive: true });
  await symlink(NPM_DIR, join(prefix, 'lib', 'node_modules', 'npm'));
  await symlink('../lib/node_modules/npm/bin/npx-cli.js', join(bin, 'npx'));
  await writeFile(join(bin, 'node'), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${log}'\nexec '${process.execPath}' "$@"\n`);
  await chmod(join(bin, 'node'), 0o755);
  return bin;
}

/** Starts the command, sends initialize, and gives the first line it answers (or its stderr when it exits). */
function initialize(command: string, args: string[], env: Record<string, string>, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      child.kill();
      resolve(line);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before answering: ${stderr}`));
    });
    const params = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gui-e2e', version: '1' } };
    child.stdin.end(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params })}\n`);
  });
}

describe('the runner written for a GUI client starts without a shell', {
  skip: sessionPath === undefined || !existsSync(join(NPM_DIR, 'bin', 'npx-cli.js')),
}, () => {
  it("Claude Desktop, npx from nvm: the entry answers initialize on the session PATH, on nvm's node", async () => {
    const home = await tempDir('svcctl-gui-e2e-');
    const log = join(home, 'node-runs.log');
    const bin = await nvmLayout(home, log);
    const installed = await runCli(['mcp', 'install', '--client', 'claude-desktop', '--package', SERVER_DIR], {
      home,
      env: { ...CREDS, PATH: `${bin}:/usr/bin:/bin` },
    });
    assert.equal(installed.code, 0, installed.stderr);
    const file =
      process.platform === 'darwin'
        ? 'Library/Application Support/Claude/claude_desktop_config.json'
        : '.config/Claude/claude_desktop_config.json';
    const entry = JSON.parse(await readFile(join(home, file), 'utf8')).mcpServers.service;
    assert.equal(entry.command, join(bin, 'npx'));

    // What the MCP SDK's stdio transport gives a server: a few variables, PATH the session's, the entry's env over them.
    const env = { HOME: home, PATH: sessionPath!, NPM_CONFIG_UPDATE_NOTIFIER: 'false', ...entry.env };
    const answer = JSON.parse(await initialize(entry.command, entry.args, env, home));
    assert.equal(answer.result.serverInfo.name, 'fake-mcp-server');
    const scripts = (await readFile(log, 'utf8')).trim().split('\n');
    assert.ok(scripts.includes(entry.command), scripts.join('\n'));
    assert.ok(
      scripts.some((script) => script.includes('fake-mcp-server')),
      scripts.join('\n'),
    );
  });
});
