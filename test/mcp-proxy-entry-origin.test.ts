/**
 * A token-helper entry (`svcctl … mcp proxy`) for an MCP URL on another origin than the base URL: the proxy sends the
 * deployment's token there only when its line says `--auth bearer` (issue 47, src/commands/mcp-proxy.ts), so the line
 * install writes must say it, or the entry it just wrote would exit 2 at every start. The line is then run through the
 * real program: it must get past the origin check (and stop at the missing login instead).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const BASE = 'https://acme.example.com/api';
const INSTALL = [
  'mcp',
  'install',
  '--client',
  'cursor',
  '--mode',
  'proxy',
  '--auth',
  'bearer',
  '--token',
  'helper',
  '-q',
];

async function installedArgs(mcpUrl: string): Promise<{ home: string; args: string[] }> {
  const home = await tempDir('svcctl-proxy-origin-');
  const env = { SERVICE_BASE_URL: BASE, SERVICE_MCP_URL: mcpUrl };
  const run = await runCli(INSTALL, { home, env });
  assert.equal(run.code, 0, run.stderr);
  const entry = JSON.parse(await readFile(join(home, '.cursor', 'mcp.json'), 'utf8')).mcpServers.service;
  return { home, args: entry.args as string[] };
}

const afterSvcctl = (args: string[]): string[] => args.slice(args.indexOf('--base-url'));

describe('mcp install --mode proxy --token helper: the line for an MCP URL of another origin', () => {
  it('asks the proxy for --auth bearer, and the real proxy accepts the line', async () => {
    const other = 'https://mcp.other.example/mcp';
    const { home, args } = await installedArgs(other);
    const line = afterSvcctl(args);
    assert.deepEqual(line, ['--base-url', BASE, '--mcp-url', other, 'mcp', 'proxy', '--auth', 'bearer']);
    const proxy = await runCli(line, { home, env: {} });
    assert.equal(proxy.code === 0, false);
    assert.doesNotMatch(proxy.stderr, /not on the deployment's origin/);
    assert.match(proxy.stderr, /not logged in/);
  });

  it("shows the method in --dry-run's diff: `bearer` is no secret, and it is what sends the token elsewhere", async () => {
    const home = await tempDir('svcctl-proxy-origin-');
    const env = { SERVICE_BASE_URL: BASE, SERVICE_MCP_URL: 'https://mcp.other.example/mcp' };
    const run = await runCli([...INSTALL, '--dry-run'], { home, env });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /\+ +"--auth",\n\+ +"bearer"/);
  });

  it('leaves --auth out where the MCP URL is on the deployment origin', async () => {
    const { args } = await installedArgs('https://acme.example.com/mcp');
    assert.deepEqual(afterSvcctl(args), ['--base-url', BASE, 'mcp', 'proxy']);
  });
});
