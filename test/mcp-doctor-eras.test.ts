/**
 * `svcctl mcp doctor` against servers of each MCP protocol era, built in the
 * test on the SDK v2: one that speaks only 2026-07-28 (2025 requests refused),
 * one that speaks only 2025 (the 2026 probe not recognised), and one that
 * speaks neither (a later revision only). Doctor names the revision it
 * connected in, and a version mismatch never blames the entry's URL or headers.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, type RunResult } from './helpers/cli.js';
import { startEraServer, type EraServer } from './helpers/mcp-eras.js';
import { tempDir } from './helpers/temp-dirs.js';

const PASSWORD = 'era-doctor-pw';
let home: string;

before(async () => {
  home = await tempDir('svcctl-doctor-eras-');
});
after(async () => rm(home, { recursive: true, force: true }));

const lineOf = (result: RunResult, name: string): string =>
  result.stdout.split('\n').find((line) => line.slice(2).startsWith(`${name}:`)) ?? '';

async function doctor(url: string, password: string, json = false): Promise<RunResult> {
  const dir = join(home, String(Math.random()).slice(2));
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'mcp.json');
  await writeFile(
    file,
    JSON.stringify({
      mcpServers: { svc: { url, headers: { 'X-Service-Email': 'a@example.com', 'X-Service-Password': password } } },
    }),
  );
  return runCli(['mcp', 'doctor', '--config', file, '--trust-project', ...(json ? ['--json'] : [])], { home, env: {} });
}

describe('mcp doctor and the MCP protocol eras', () => {
  let modern: EraServer;
  let legacy: EraServer;
  before(async () => {
    modern = await startEraServer('2026', PASSWORD);
    legacy = await startEraServer('2025', PASSWORD);
  });
  after(async () => Promise.all([modern?.close(), legacy?.close()]));

  it('a server that speaks only 2026-07-28: exit 0, the revision named, and no initialize sent', async () => {
    const result = await doctor(modern.url, PASSWORD);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(
      lineOf(result, 'initialize'),
      /^✓ initialize: \S+ answered \(era-2026-server 9\.9\.9\) in MCP 2026-07-28 \(server\/discover\)$/,
    );
    assert.match(lineOf(result, 'tools/list'), /^✓ tools\/list: 1 tool: echo$/);
    assert.deepEqual(modern.seen, ['POST server/discover', 'POST tools/list']);
    const report = JSON.parse((await doctor(modern.url, PASSWORD, true)).stdout);
    assert.equal(report.checks.find((check: { name: string }) => check.name === 'initialize').protocol, '2026-07-28');
  });

  it('a server that speaks only 2025: discover first, then initialize; exit 0 naming 2025-11-25', async () => {
    const result = await doctor(legacy.url, PASSWORD);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(
      lineOf(result, 'initialize'),
      /^✓ initialize: \S+ answered \(era-2025-server 9\.9\.9\) in MCP 2025-11-25 \(initialize; no 2026-07-28 offered\)$/,
    );
    assert.deepEqual(legacy.seen.slice(0, 2), ['POST server/discover', 'POST initialize']);
  });

  it('a wrong password on the probe is an auth failure: exit 8, no fallback to initialize, no word of versions', async () => {
    const before = modern.seen.length;
    const result = await doctor(modern.url, 'wrong');
    assert.equal(result.code, 8, result.stdout + result.stderr);
    assert.match(lineOf(result, 'initialize'), /rejected the entry's credentials \(401\): invalid email or password$/);
    assert.doesNotMatch(result.stdout, /version|revision/i);
    assert.deepEqual(modern.seen.slice(before), ['POST server/discover']);
  });
});

describe('mcp doctor and a server of a later revision only', () => {
  let server: Server;
  let url: string;
  before(async () => {
    server = createServer((req, res) => {
      req.resume().on('end', () => {
        const error = { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2027-03-01'] } };
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: null, error }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('exit 8 saying the revisions do not meet, and the fix does not blame the URL or the headers', async () => {
    const result = await doctor(url, PASSWORD);
    assert.equal(result.code, 8, result.stdout + result.stderr);
    const line = lineOf(result, 'initialize');
    assert.match(
      line,
      /speaks none of the MCP revisions svcctl speaks \(2026-07-28, 2025-11-25\): it serves 2027-03-01/,
    );
    assert.doesNotMatch(result.stdout + result.stderr, /check the URL|headers of the entry/);
    assert.match(result.stdout + result.stderr, /the entry is not at fault: update svcctl/);
  });
});
