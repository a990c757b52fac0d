/**
 * Saved deployments that point at nothing: the README's sandbox block, pasted twice into one HOME, leaves
 * no dead deployment behind, and a dead one that is used anyway is named, probed and said to be dead.
 * `status` says whether the deployment answers and when the login expires in words; `deployment remove`
 * forgets the token too; `deployment prune` forgets every deployment that does not answer.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT } from './helpers/cli.js';
import { runCli } from './helpers/cli.js';
import { shellBlocks } from './helpers/doc-blocks.js';
import { EMAIL, PASSWORD, startLoginServer, type LoginServer } from './helpers/login-server.js';
import { runDocBlock } from './helpers/run-doc-block.js';
import { tempDir } from './helpers/temp-dirs.js';

/** What a new user runs next: a project entry for the saved (or default) deployment, shown, not written. */
const INSTALL_REMOTE_DRY_RUN = [
  'mcp',
  'install',
  '--client',
  'cursor',
  '--scope',
  'project',
  '--mode',
  'remote',
  '--auth',
  'bearer',
  '--dry-run',
];

const readmeSandboxBlock = () => {
  const block = shellBlocks('README.md', readFileSync(join(ROOT, 'README.md'), 'utf8')).find(
    (b) => b.code.includes('svcctl dev --detach') && b.code.includes('login --save'),
  );
  assert.ok(block, "the README's sandbox block");
  return block;
};

/** The saved tokens (svcctl removes credentials.json once it holds none). */
const credentials = (home: string): Promise<{ tokens: Record<string, unknown> }> =>
  readFile(join(home, '.config', 'svcctl', 'credentials.json'), 'utf8').then(
    JSON.parse,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return { tokens: {} };
      throw error;
    },
  );

describe("the README's sandbox block, pasted twice into one HOME", () => {
  it('leaves no deployment; status and mcp install in a fresh shell say there is none', async () => {
    const home = await tempDir('svcctl-first-day-');
    const block = readmeSandboxBlock();
    for (let round = 1; round <= 2; round++) {
      const run = await runDocBlock(block, 60_000, home);
      assert.deepEqual(run.failures, [], `round ${round}:\n${run.output}`);
      assert.equal(run.code, 0, run.output);
    }
    const list = await runCli(['--json', 'deployment', 'list'], { home });
    assert.deepEqual(JSON.parse(list.stdout), []);
    const status = await runCli(['status'], { home });
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /deployment: none/);
    const install = await runCli(INSTALL_REMOTE_DRY_RUN, { home });
    assert.equal(install.code, 2, 'a usage error, not an entry for a stopped sandbox');
    assert.match(install.stderr, /no base URL/);
  });

  it('without its logout line: the stopped sandbox is the only saved login, and status and mcp install say it does not answer', async () => {
    const home = await tempDir('svcctl-first-day-');
    const block = readmeSandboxBlock();
    const run = await runDocBlock({ ...block, code: block.code.replace(/^svcctl logout\n/m, '') }, 60_000, home);
    assert.equal(run.code, 0, run.output);
    const [sandboxUrl] = Object.keys((await credentials(home)).tokens);
    assert.match(sandboxUrl!, /^http:\/\/127\.0\.0\.1:\d+\/api$/);
    const status = await runCli(['status'], { home });
    assert.equal(status.code, 0, status.stderr);
    assert.ok(status.stdout.includes(sandboxUrl!), status.stdout);
    assert.match(status.stdout, /answers: +no: connection refused/);
    const json = JSON.parse((await runCli(['--json', 'status'], { home })).stdout);
    assert.equal(json.deployment.answers, false);
    const install = await runCli(INSTALL_REMOTE_DRY_RUN, { home });
    assert.equal(install.code, 0, install.stderr);
    assert.match(install.stderr, /The entry points at .*127\.0\.0\.1:\d+\/mcp \(from the only saved login\)/);
    assert.match(install.stderr, /does not answer \(connection refused/);
  });
});

describe('deployments and logins', () => {
  let live: LoginServer;
  let stopped: LoginServer;
  before(async () => {
    live = await startLoginServer();
    stopped = await startLoginServer();
  });
  after(async () => {
    await live.close();
  });
  const login = (home: string, server: LoginServer, ...extra: string[]) =>
    runCli(['login', '--save', ...extra, '--email', EMAIL, '--password-stdin', '--base-url', server.baseUrl], {
      home,
      input: `${PASSWORD}\n`,
    });

  it('login --save remembers a loopback deployment only with --remember-deployment', async () => {
    const home = await tempDir('svcctl-first-day-');
    assert.equal((await login(home, live)).code, 0);
    assert.deepEqual(JSON.parse((await runCli(['--json', 'deployment', 'list'], { home })).stdout), []);
    assert.ok(live.baseUrl in (await credentials(home)).tokens, 'the token is saved all the same');
    assert.equal((await login(home, live, '--remember-deployment')).code, 0);
    const rows = JSON.parse((await runCli(['--json', 'deployment', 'list'], { home })).stdout);
    assert.deepEqual(
      rows.map((r: { base_url: string; default: boolean }) => [r.base_url, r.default]),
      [[live.baseUrl, true]],
    );
    const refused = await runCli(['login', '--remember-deployment', '--base-url', live.baseUrl], { home });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--remember-deployment needs --save/);
  });

  it('status: the expiry in words by the run clock, and whether the deployment answers', async () => {
    const home = await tempDir('svcctl-first-day-');
    assert.equal((await login(home, live)).code, 0);
    const exp = JSON.parse(Buffer.from(live.issued.at(-1)!.split('.')[1]!, 'base64url').toString()).exp as number;
    const soon = await runCli(['status'], {
      home,
      env: { SERVICE_BASE_URL: live.baseUrl },
      now: () => new Date(exp * 1000 - 30 * 60_000),
    });
    assert.match(soon.stdout, /login: +ops@acme\.example, expires in 30 minutes \(/);
    assert.match(soon.stdout, /answers: +yes/);
    const late = await runCli(['status'], {
      home,
      env: { SERVICE_BASE_URL: live.baseUrl },
      now: () => new Date(exp * 1000 + 5 * 60_000),
    });
    assert.match(late.stdout, /login: +ops@acme\.example, expired 5 minutes ago \(/);
  });

  it('deployment remove forgets its token (--keep-login keeps it); logout says how to forget the deployment', async () => {
    const home = await tempDir('svcctl-first-day-');
    assert.equal((await login(home, live, '--remember-deployment')).code, 0);
    const name = new URL(live.baseUrl).host;
    const logout = await runCli(['logout'], { home });
    assert.match(logout.stderr, new RegExp(`'svcctl deployment remove ${name}' forgets it too`));
    assert.equal((await login(home, live)).code, 0);
    const removed = await runCli(['deployment', 'remove', name], { home });
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stderr, /removed, with the token saved for it/);
    assert.deepEqual((await credentials(home)).tokens, {});
    assert.equal((await login(home, live, '--remember-deployment')).code, 0);
    assert.equal((await runCli(['deployment', 'remove', '--keep-login', name], { home })).code, 0);
    assert.ok(live.baseUrl in (await credentials(home)).tokens);
  });

  it('deployment prune forgets every deployment that does not answer, with its token, and keeps the others', async () => {
    const home = await tempDir('svcctl-first-day-');
    assert.equal((await login(home, stopped, '--remember-deployment')).code, 0);
    assert.equal((await login(home, live, '--remember-deployment')).code, 0);
    await stopped.close();
    const dry = await runCli(['deployment', 'prune', '--dry-run'], { home });
    assert.match(
      dry.stdout,
      new RegExp(`would remove ${new URL(stopped.baseUrl).host.replace(/\./g, '\\.')} .*connection refused`),
    );
    assert.equal(JSON.parse((await runCli(['--json', 'deployment', 'list'], { home })).stdout).length, 2);
    const prune = await runCli(['--json', 'deployment', 'prune'], { home });
    assert.equal(prune.code, 0, prune.stderr);
    assert.deepEqual(JSON.parse(prune.stdout).removed, [new URL(stopped.baseUrl).host]);
    const rows = JSON.parse((await runCli(['--json', 'deployment', 'list'], { home })).stdout);
    assert.deepEqual(
      rows.map((r: { base_url: string }) => r.base_url),
      [live.baseUrl],
    );
    assert.deepEqual(Object.keys((await credentials(home)).tokens), [live.baseUrl]);
  });
});
