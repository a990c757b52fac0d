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
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseJsonc } from 'jsonc-parser';
import { CLIENTS } from '../src/mcp/clients/table.js';
import type { ClientId } from '../src/mcp/types.js';
import { runCli } from './helpers/cli.js';
import { CTRL_C, ENTER, runAtTerminal } from './helpers/fake-terminal.js';
import { startDev, type DevServer } from './helpers/dev-sandbox.js';
import { listPrintDoctor } from './helpers/mcp-roundtrip.js';
import { tempDir } from './helpers/temp-dirs.js';

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
      const home = await tempDir(`svcctl-${id}-`);
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

describe('Warp has no proxy mode', () => {
  it('--mode proxy is refused with the reason (exit 2), and the mode question says so (Warp detected by ~/.warp)', async () => {
    const home = await tempDir('svcctl-warp-');
    const env = { SERVICE_BASE_URL: 'https://acme.example.com/api', SERVICE_MCP_URL: 'https://acme.example.com/mcp' };
    const refused = await runCli(['mcp', 'install', '--client', 'warp', '--mode', 'proxy'], { home, env });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /Warp cannot hold a mcp-remote entry \(Warp fills every \$\{VAR\}/);
    assert.match(refused.stderr, /hint: use --mode remote/);
    await mkdir(join(home, '.warp'));
    const asked = await runAtTerminal(['mcp', 'install'], {
      home,
      env,
      answers: [
        [/Which clients\?/, ` ${ENTER}`],
        [/Which mode\?/, CTRL_C],
      ],
    });
    assert.match(asked.screen, /proxy — npx mcp-remote bridges a client that only runs local servers \(not for Warp\)/);
    assert.doesNotMatch(asked.screen, /remote — the client talks to the deployment's MCP URL over HTTP \(not for/);
    await rm(home, { recursive: true, force: true });
  });
});
