/**
 * Goose and Amp read their files under XDG_CONFIG_HOME, and Goose under
 * GOOSE_PATH_ROOT first: the expected paths are written by hand from block/goose
 * `crates/goose/src/config/paths.rs` with etcetera's Xdg strategy (absolute
 * values only) and from Amp 0.0.1790142911 run with XDG_CONFIG_HOME set
 * (docs/clients-editors.md, docs/clients-agents.md). The variables come from
 * the ClientEnv (ctx.env), never from this process's environment.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLIENTS } from '../src/mcp/clients/table.js';
import type { ClientEnv } from '../src/mcp/types.js';
import { runCli } from './helpers/cli.js';
import { LINUX, MAC, WIN } from './helpers/mcp-request.js';
import { tempDir } from './helpers/temp-dirs.js';

const withEnv = (base: ClientEnv, env: NodeJS.ProcessEnv): ClientEnv => ({ ...base, env: { ...base.env, ...env } });
const goose = (env: ClientEnv): string => CLIENTS.goose.configPath(env, 'user');
const amp = (env: ClientEnv): string => CLIENTS.amp.configPath(env, 'user');

test('Goose: an absolute XDG_CONFIG_HOME moves config.yaml on Linux and macOS; a relative one is ignored', () => {
  assert.equal(goose(withEnv(LINUX, { XDG_CONFIG_HOME: '/xdg' })), '/xdg/goose/config.yaml');
  assert.equal(goose(withEnv(MAC, { XDG_CONFIG_HOME: '/xdg' })), '/xdg/goose/config.yaml');
  assert.equal(goose(withEnv(LINUX, { XDG_CONFIG_HOME: 'rel/xdg' })), '/home/ann/.config/goose/config.yaml');
  assert.equal(goose(withEnv(LINUX, { XDG_CONFIG_HOME: '' })), '/home/ann/.config/goose/config.yaml');
  assert.equal(
    goose(withEnv(WIN, { XDG_CONFIG_HOME: 'C:\\xdg' })),
    'C:\\Users\\ann\\AppData\\Roaming\\Block\\goose\\config\\config.yaml',
  );
});

test('Goose: an absolute GOOSE_PATH_ROOT wins on every OS (its config folder), a relative one is ignored', () => {
  const root = { GOOSE_PATH_ROOT: '/srv/goose', XDG_CONFIG_HOME: '/xdg' };
  assert.equal(goose(withEnv(LINUX, root)), '/srv/goose/config/config.yaml');
  assert.equal(goose(withEnv(MAC, root)), '/srv/goose/config/config.yaml');
  assert.equal(goose(withEnv(WIN, { GOOSE_PATH_ROOT: 'D:\\goose' })), 'D:\\goose\\config\\config.yaml');
  assert.equal(goose(withEnv(LINUX, { GOOSE_PATH_ROOT: 'goose' })), '/home/ann/.config/goose/config.yaml');
  assert.equal(CLIENTS.goose.detectPath(withEnv(LINUX, root)), '/srv/goose/config');
});

test('Amp: XDG_CONFIG_HOME moves the user settings.json on Linux and macOS, not the project file', () => {
  assert.equal(amp(withEnv(LINUX, { XDG_CONFIG_HOME: '/xdg' })), '/xdg/amp/settings.json');
  assert.equal(amp(withEnv(MAC, { XDG_CONFIG_HOME: '/xdg' })), '/xdg/amp/settings.json');
  assert.equal(amp(LINUX), '/home/ann/.config/amp/settings.json');
  assert.equal(CLIENTS.amp.detectPath(withEnv(LINUX, { XDG_CONFIG_HOME: '/xdg' })), '/xdg/amp');
  assert.equal(
    CLIENTS.amp.configPath(withEnv(LINUX, { XDG_CONFIG_HOME: '/xdg' }), 'project'),
    '/home/ann/proj/.amp/settings.json',
  );
  assert.equal(amp(withEnv(WIN, { XDG_CONFIG_HOME: 'C:\\xdg' })), 'C:\\Users\\ann\\.config\\amp\\settings.json');
});

test('mcp install and list take XDG_CONFIG_HOME and GOOSE_PATH_ROOT from the command environment', async () => {
  const home = await tempDir('svcctl-xdg-');
  const env = {
    SERVICE_BASE_URL: 'https://acme.example.com/api',
    SERVICE_MCP_URL: 'https://acme.example.com/mcp',
    XDG_CONFIG_HOME: join(home, 'xdg'),
    GOOSE_PATH_ROOT: join(home, 'goose-root'),
  };
  const installed = await runCli(['mcp', 'install', '--client', 'goose', '--client', 'amp', '--mode', 'remote'], {
    home,
    env,
  });
  assert.equal(installed.code, 0, installed.stderr);
  assert.match(await readFile(join(home, 'goose-root', 'config', 'config.yaml'), 'utf8'), /^extensions:/m);
  assert.match(await readFile(join(home, 'xdg', 'amp', 'settings.json'), 'utf8'), /"amp\.mcpServers"/);
  assert.ok(!existsSync(join(home, '.config')), 'nothing under ~/.config');
  const listed = await runCli(['mcp', 'list', '--json'], { home, env });
  assert.equal(listed.code, 0, listed.stderr);
  const files = (JSON.parse(listed.stdout) as { file: string }[]).map((row) => row.file);
  assert.deepEqual(files.sort(), [
    join(home, 'goose-root', 'config', 'config.yaml'),
    join(home, 'xdg', 'amp', 'settings.json'),
  ]);
  await rm(home, { recursive: true, force: true });
});
