/**
 * `mcp install` of a local entry asks npm's registry whether it has the package the entry runs (issue 49, item 8):
 * a registry stand-in on 127.0.0.1 that has one package, answers 404 for the others and never answers for one; the
 * registry is taken from npm's settings as npx takes it (the environment, else the user's .npmrc). The entry is
 * written in every case; what changes is the warning, which carries `mcp doctor`'s fix.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PACKAGE_CHECK_MS } from '../src/mcp/install/package-check.js';
import { runningPhases, useDeadlineClock } from '../src/http/attempt-deadline.js';
import { runCli } from './helpers/cli.js';
import { manualClock } from './helpers/manual-clock.js';
import { pollUntil } from './helpers/poll.js';
import { listenOnLoopback } from './helpers/loopback.js';
import { tempDir } from './helpers/temp-dirs.js';

const HANGING = 'hanging-mcp-server';
let registry: { url: string; requests: string[]; held: ServerResponse[]; close(): Promise<void> };

before(async () => {
  const requests: string[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(req.url ?? '/');
    requests.push(path);
    if (path === `/${HANGING}`) return void held.push(res);
    if (path === '/service-mcp-server' || path === '/@acme/mcp-server')
      return void res
        .writeHead(200, { 'content-type': 'application/vnd.npm.install-v1+json' })
        .end(JSON.stringify({ name: path.slice(1), 'dist-tags': { latest: '1.2.0' }, versions: { '1.2.0': {} } }));
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
  });
  const listening = await listenOnLoopback(server);
  registry = { url: `${listening.origin}/`, requests, held, close: listening.close };
});
after(async () => {
  for (const res of registry.held) res.destroy();
  await registry.close();
});

const BASE = {
  SERVICE_BASE_URL: 'http://127.0.0.1:9/api',
  SERVICE_EMAIL: 'ops@example.com',
  npm_config_offline: undefined,
};

async function install(extra: string[], env: Record<string, string | undefined>, home?: string) {
  const where = home ?? (await tempDir('svcctl-package-check-'));
  const result = await runCli(['mcp', 'install', '--client', 'cursor', ...extra], { home: where, env });
  const entry = JSON.parse(await readFile(join(where, '.cursor', 'mcp.json'), 'utf8')).mcpServers.service;
  return { ...result, entry };
}

describe('mcp install, local mode: the package on the registry', () => {
  it('the registry has it: no warning, and it was asked for that package', async () => {
    const before = registry.requests.length;
    const result = await install([], { ...BASE, npm_config_registry: registry.url });
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stderr, /warning/);
    assert.deepEqual(registry.requests.slice(before), ['/service-mcp-server']);
  });

  it("a package the registry does not have: a warning with doctor's fix, and the entry is written all the same", async () => {
    const result = await install(['--package', 'no-such-mcp-server@latest'], {
      ...BASE,
      npm_config_registry: registry.url,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.ok(
      result.stderr.includes(`warning: ${registry.url} has no package no-such-mcp-server: the entry cannot start.`),
      result.stderr,
    );
    assert.match(result.stderr, /reinstall the entry with it .*: svcctl mcp install --package <spec> --force/);
    assert.deepEqual(result.entry.args.slice(-1), ['no-such-mcp-server@latest']);
  });

  it('a version or tag it does not list is missing too', async () => {
    const env = { ...BASE, npm_config_registry: registry.url };
    const version = await install(['--package', 'service-mcp-server@9.9.9'], env);
    assert.match(version.stderr, /has service-mcp-server, but not its version 9\.9\.9: the entry cannot start/);
    const tag = await install(['--package', 'service-mcp-server@next'], env);
    assert.match(tag.stderr, /has service-mcp-server, but no version tagged next: the entry cannot start/);
  });

  it('a registry that does not answer in time: a warning that says svcctl cannot tell, pointing at doctor', async () => {
    // The 3 s limit is moved, not waited for: once the lookup waits for the answer's headers, the clock passes it.
    const clock = manualClock();
    const restore = useDeadlineClock(clock);
    let ended = false;
    const running = install(['--package', HANGING], { ...BASE, npm_config_registry: registry.url }).finally(() => {
      ended = true;
    });
    try {
      await pollUntil('the registry lookup waiting for its headers', () => {
        if (ended) throw new Error('install ended before its registry lookup waited for an answer');
        return runningPhases().join() === 'headers';
      });
      clock.advance(PACKAGE_CHECK_MS - 1);
      assert.deepEqual(runningPhases(), ['headers'], 'the lookup ended before its time limit');
    } finally {
      clock.advance(PACKAGE_CHECK_MS);
    }
    const result = await running.finally(restore);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(`warning: cannot tell whether the npm registry has ${HANGING} \\(.+\\); svcctl mcp doctor`),
    );
  });

  it('a loopback registry that refuses the connection: the warning names the registry, not a sandbox', async () => {
    // A port that was free a moment ago: nothing listens there, so the connection is refused.
    const gone = await listenOnLoopback(createServer());
    await gone.close();
    const result = await install([], { ...BASE, npm_config_registry: `${gone.origin}/` });
    assert.equal(result.code, 0, result.stderr);
    const url = new URL(gone.origin);
    assert.ok(
      result.stderr.includes(
        `warning: cannot tell whether the npm registry has service-mcp-server (connection refused by ${url.host}: no npm registry is listening at ${gone.origin}); svcctl mcp doctor`,
      ),
      result.stderr,
    );
    assert.doesNotMatch(result.stderr, /sandbox/);
  });

  it('a FIFO as ~/.npmrc is no setting: install goes on at once instead of waiting for a writer', async () => {
    const home = await tempDir('svcctl-package-check-');
    execFileSync('mkfifo', [join(home, '.npmrc')]);
    const result = await install([], { ...BASE, npm_config_registry: registry.url }, home);
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stderr, /warning/);
  });

  it("the registry of the user's .npmrc (a scope's own registry first), as npx takes it; a path is not looked up", async () => {
    const home = await tempDir('svcctl-package-check-');
    await writeFile(join(home, '.npmrc'), `registry=http://127.0.0.1:9/\n@acme:registry=${registry.url}\n`);
    const before = registry.requests.length;
    const scoped = await install(['--package', '@acme/mcp-server'], BASE, home);
    assert.equal(scoped.code, 0, scoped.stderr);
    assert.doesNotMatch(scoped.stderr, /warning/);
    assert.deepEqual(registry.requests.slice(before), ['/@acme/mcp-server']);
    const path = await install(['--package', join(home, 'server'), '--force'], BASE, home);
    assert.doesNotMatch(path.stderr, /registry/);
  });
});
