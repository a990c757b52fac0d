/**
 * Each editor/app client of issue 9 through the built CLI against `svcctl dev`:
 * install a remote entry by reference into a temp HOME, `list` finds it,
 * `print --json` shows the entry the file holds, `doctor` reads it as the
 * client would and logs in, `uninstall` removes it. Goose's file is YAML:
 * comments and the user's other settings survive install and uninstall.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseYaml } from 'yaml';
import { CLIENTS } from '../src/mcp/clients/table.js';
import type { ClientId } from '../src/mcp/types.js';
import { runCli, secretsIn } from './helpers/cli.js';
import { startDev, type DevServer } from './helpers/dev-sandbox.js';
import { listPrintDoctor } from './helpers/mcp-roundtrip.js';
import { tempDir } from './helpers/temp-dirs.js';

const ALICE = { email: 'alice@example.com', password: 'alice-editors-pw' };
const EDITORS: ClientId[] = ['roo-code', 'kiro', 'goose'];
const GOOSE_TEXT =
  '# my goose\nGOOSE_PROVIDER: openai # chosen\nextensions:\n  developer:\n    enabled: true\n    type: builtin\n    name: developer\n';

let dev: DevServer;
before(async () => {
  dev = await startDev(['--user', `${ALICE.email}:${ALICE.password}`]);
});
after(async () => {
  await dev?.stop();
});

describe('install, list, print, doctor, uninstall per editor (remote, password by reference)', () => {
  for (const id of EDITORS) {
    it(id, async () => {
      const home = await tempDir(`svcctl-${id}-`);
      const clientEnv = {
        homeDir: home,
        env: { XDG_CONFIG_HOME: `${home}/.config` },
        platform: 'linux' as const,
        projectDir: home,
      };
      const file = CLIENTS[id].configPath(clientEnv, 'user');
      if (id === 'goose') {
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, GOOSE_TEXT);
      }
      const env = {
        SERVICE_MCP_URL: dev.ready.mcp_url,
        SERVICE_BASE_URL: dev.ready.base_url,
        SERVICE_EMAIL: ALICE.email,
        SERVICE_PASSWORD: ALICE.password,
      };
      const run = (args: string[]) => runCli(args, { home, env });
      const installed = await run(['mcp', 'install', '--client', id, '--mode', 'remote']);
      assert.equal(installed.code, 0, installed.stderr);
      const text = await readFile(file, 'utf8');
      assert.ok(!text.includes(ALICE.password), 'a reference, not the password, is in the file');
      const parsed = id === 'goose' ? parseYaml(text) : parseJsonc(text);
      const entry = CLIENTS[id]
        .entryPath('service', 'user', clientEnv)
        .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], parsed);
      if (id === 'goose') {
        assert.ok(text.startsWith('# my goose\nGOOSE_PROVIDER: openai # chosen\n'), text);
        assert.deepEqual(entry, {
          enabled: true,
          type: 'streamable_http',
          name: 'service',
          description: '',
          uri: dev.ready.mcp_url,
          headers: { 'X-Service-Email': '${SERVICE_EMAIL}', 'X-Service-Password': '${SERVICE_PASSWORD}' },
          env_keys: ['SERVICE_EMAIL', 'SERVICE_PASSWORD'],
          timeout: 300,
        });
      }

      const again = await run(['mcp', 'install', '--client', id, '--mode', 'remote']);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(await readFile(file, 'utf8'), text, 'a second install changes nothing');

      const doctor = await listPrintDoctor(run, id, entry);
      assert.deepEqual(secretsIn(doctor, [ALICE.password]), []);

      const removed = await run(['mcp', 'uninstall', '--client', id]);
      assert.equal(removed.code, 0, removed.stderr);
      if (id === 'goose') {
        const left = await readFile(file, 'utf8');
        assert.ok(!/\bservice\b/.test(left), left);
        assert.deepEqual(parseYaml(left), parseYaml(GOOSE_TEXT));
      } else assert.ok(!existsSync(file), 'svcctl created the file, so it goes with its only entry');
      await rm(home, { recursive: true, force: true });
    });
  }
});

describe('Goose: a config.yaml that does not parse is refused and left as it was', () => {
  it('exit 7 with file:line:column; nothing written, no backup', async () => {
    const home = await tempDir('svcctl-goose-bad-');
    const file = CLIENTS.goose.configPath({ homeDir: home, env: {}, platform: 'linux', projectDir: home }, 'user');
    const bad = 'GOOSE_PROVIDER: openai\nextensions:\n  developer: [\n';
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, bad);
    const result = await runCli(['mcp', 'install', '--client', 'goose', '--mode', 'remote'], {
      home,
      env: { SERVICE_BASE_URL: dev.ready.base_url },
    });
    assert.equal(result.code, 7, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: the file does not parse`),
    );
    assert.equal(await readFile(file, 'utf8'), bad);
    await assert.rejects(readFile(`${file}.bak`, 'utf8'), { code: 'ENOENT' });
    await rm(home, { recursive: true, force: true });
  });
});
