/**
 * Each CLI agent of issue 9 through the built CLI against `svcctl dev`: install
 * a remote entry by reference into a temp HOME, `list` finds it under the
 * agent, `print --json` shows the entry the file holds, `doctor` reads it as
 * the agent would ({env:VAR} for opencode and Kilo, `httpUrl` for Qwen Code,
 * the flat "amp.mcpServers" key for Amp) and logs in, and `uninstall` removes
 * it. The sandbox's log shows independently that each doctor's login arrived.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { parse as parseJsonc } from 'jsonc-parser';
import { CLIENTS } from '../src/mcp/clients/table.js';
import type { ClientId } from '../src/mcp/types.js';
import { runCli, secretsIn } from './helpers/cli.js';
import { startDev, type DevServer } from './helpers/dev-sandbox.js';
import { listPrintDoctor } from './helpers/mcp-roundtrip.js';
import { tempDir } from './helpers/temp-dirs.js';

const ALICE = { email: 'alice@example.com', password: 'alice-agents-pw' };
const AGENTS: ClientId[] = ['opencode', 'kilo', 'copilot', 'qwen', 'auggie', 'droid', 'amp', 'crush'];

const DOCTOR_LOGIN = /POST \/mcp 200 .*alice@example\.com \(password\) 2026-07-28 server\/discover/;
const doctorLogins = (log: string): number => log.match(new RegExp(DOCTOR_LOGIN.source, 'g'))?.length ?? 0;

let dev: DevServer;
let root: string;
before(async () => {
  dev = await startDev(['--user', `${ALICE.email}:${ALICE.password}`]);
  root = await tempDir('svcctl-agents-cli-');
});
after(async () => {
  await dev?.stop();
  await rm(root, { recursive: true, force: true });
});

describe('install, list, print, doctor, uninstall per agent (remote, password by reference)', () => {
  for (const id of AGENTS) {
    it(id, async () => {
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
      const file = CLIENTS[id].configPath(
        { homeDir: home, env: { XDG_CONFIG_HOME: `${home}/.config` }, platform: 'linux', projectDir: home },
        'user',
      );
      const text = await readFile(file, 'utf8');
      assert.ok(!text.includes(ALICE.password), 'a reference, not the password, is in the file');
      const entry = CLIENTS[id]
        .entryPath('service', 'user', { homeDir: home, env: {}, platform: 'linux', projectDir: home })
        .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], parseJsonc(text));

      const loginsBefore = doctorLogins(dev.stderr());
      const doctor = await listPrintDoctor(run, id, entry);
      await dev.waitForStderr(new RegExp(`(?:${DOCTOR_LOGIN.source}[^]*){${loginsBefore + 1}}`));
      assert.match(doctor.stdout, /^✓ variables: set: SERVICE_EMAIL, SERVICE_PASSWORD$/m);
      assert.deepEqual(secretsIn(doctor, [ALICE.password]), []);

      const removed = await run(['mcp', 'uninstall', '--client', id]);
      assert.equal(removed.code, 0, removed.stderr);
      assert.ok(!existsSync(file), 'svcctl created the file, so it goes with its only entry');
      await rm(home, { recursive: true, force: true });
    });
  }
});
