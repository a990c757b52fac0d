/**
 * The clients added from the peers' lists (VS Code Insiders, Cline CLI, Amazon
 * Q Developer CLI, Warp) through the CLI against `svcctl dev`, on real files in a
 * temp HOME: install a remote entry, `list`, `print` and `doctor` read it as
 * the client would and log in, `uninstall` removes it and the file svcctl
 * created. Cline CLI expands no variables, so its entry holds the password
 * (mode 0600); the others hold references.
 */
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { parse as parseJsonc } from 'jsonc-parser';
import { CLIENTS } from '../src/mcp/clients/table.js';
import type { ClientId } from '../src/mcp/types.js';
import { makeTempDir, runCli } from './helpers/cli.js';
import { startDev, type DevServer } from './helpers/dev-sandbox.js';
import { listPrintDoctor } from './helpers/mcp-roundtrip.js';

const ALICE = { email: 'alice@example.com', password: 'alice-peers-pw' };
const PEERS: [ClientId, 'reference' | 'literal'][] = [
  ['vscode-insiders', 'reference'],
  ['cline-cli', 'literal'],
  ['amazon-q', 'reference'],
  ['warp', 'reference'],
];

let dev: DevServer;
before(async () => {
  dev = await startDev(['--user', `${ALICE.email}:${ALICE.password}`]);
});
after(async () => {
  await dev?.stop();
});

describe('install, list, print, doctor, uninstall (remote, password)', () => {
  for (const [id, secrets] of PEERS) {
    it(`${id} (${secrets})`, async () => {
      const home = await makeTempDir(`svcctl-${id}-`);
      const env = {
        SERVICE_MCP_URL: dev.ready.mcp_url,
        SERVICE_BASE_URL: dev.ready.base_url,
        SERVICE_EMAIL: ALICE.email,
        SERVICE_PASSWORD: ALICE.password,
      };
      const run = (args: string[]) => runCli(args, { home, env });
      const installed = await run(['mcp', 'install', '--client', id, '--mode', 'remote']);
      assert.equal(installed.code, 0, installed.stderr);
      const clientEnv = { homeDir: home, env: {}, platform: 'linux' as const, projectDir: home };
      const file = CLIENTS[id].configPath(clientEnv, 'user');
      const text = await readFile(file, 'utf8');
      assert.equal(text.includes(ALICE.password), secrets === 'literal');
      if (secrets === 'literal') assert.equal(statSync(file).mode & 0o777, 0o600);
      // `mcp print` masks a literal password by the variable it came from.
      const printed = parseJsonc(text.replaceAll(ALICE.password, '<SERVICE_PASSWORD>'));
      const entry = CLIENTS[id]
        .entryPath('service', 'user', clientEnv)
        .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], printed);
      await listPrintDoctor(run, id, entry);

      const removed = await run(['mcp', 'uninstall', '--client', id]);
      assert.equal(removed.code, 0, removed.stderr);
      assert.ok(!existsSync(file), 'svcctl created the file, so it goes with its only entry');
      await rm(home, { recursive: true, force: true });
    });
  }
});
