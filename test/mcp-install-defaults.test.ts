/**
 * What `mcp install` does with what the flags leave open (issue 39.2 and 39.4): a proxy entry says the MCP
 * URL it points at, and the login method of a remote or proxy entry without --auth is one default, the same
 * on a terminal (helpers/fake-terminal.ts) and off one; a terminal offers to change it only without -q and
 * --no-input. The expected entries come from the contract (section 4): the password headers, or no secret
 * at all in a token-helper entry (`svcctl --base-url <url> mcp proxy` for Cursor, which has no headers command).
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { ENTER, runAtTerminal, type TerminalRun } from './helpers/fake-terminal.js';
import { saveToken } from './helpers/saved-token.js';
import { tempDir } from './helpers/temp-dirs.js';

const BASE = 'https://acme.example.com/api';
// The contract: the MCP URL is the base URL with its final /api replaced by /mcp.
const MCP_URL = 'https://acme.example.com/mcp';
const ENV = { SERVICE_BASE_URL: BASE, SERVICE_EMAIL: 'ops@acme.example' };
const AUTH_QUESTION = /Which login method should the entry use\?/;
const REMOTE = ['mcp', 'install', '--client', 'cursor', '--mode', 'remote'];
const PASSWORD_HEADERS = ['X-Service-Email', 'X-Service-Password'];

const entryOf = async (home: string): Promise<Record<string, unknown>> =>
  JSON.parse(await readFile(join(home, '.cursor', 'mcp.json'), 'utf8')).mcpServers.service;

/** A question nobody answers would wait for ever: a bound makes that a failure. */
async function atTerminalWithin(args: string[], home: string, answers: [RegExp, string][] = []): Promise<TerminalRun> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${args.join(' ')} waited for an answer`)), 10_000);
  });
  try {
    return await Promise.race([runAtTerminal(args, { home, env: ENV, answers }), waited]);
  } finally {
    clearTimeout(timer);
  }
}

async function homeWith(login: 'none' | 'saved' | 'expired'): Promise<string> {
  const home = await tempDir('svcctl-defaults-');
  if (login === 'saved') await saveToken(home, BASE, 'tok-default-auth-1');
  if (login === 'expired') await saveToken(home, BASE, 'tok-default-auth-2', { expires_at: '2020-01-01T00:00:00Z' });
  return home;
}

function assertPasswordHeaders(entry: Record<string, unknown>): void {
  assert.equal(entry.url, MCP_URL);
  assert.deepEqual(Object.keys(entry.headers as object).sort(), PASSWORD_HEADERS);
}

function assertTokenHelper(entry: Record<string, unknown>): void {
  assert.deepEqual((entry.args as string[]).slice(-4), ['--base-url', BASE, 'mcp', 'proxy'], JSON.stringify(entry));
  assert.doesNotMatch(JSON.stringify(entry), /Password|tok-default-auth/);
}

describe('mcp install --mode proxy: the URL the entry points at', () => {
  const PROXY_DRY_RUN = ['mcp', 'install', '--client', 'cursor', '--mode', 'proxy', '--dry-run'];
  for (const [label, extra, env, source] of [
    ['as the issue ran it', [], ENV, 'SERVICE_BASE_URL'],
    ['--base-url', ['--base-url', BASE], { SERVICE_EMAIL: ENV.SERVICE_EMAIL }, '--base-url'],
    ['--auth bearer', ['--auth', 'bearer'], ENV, 'SERVICE_BASE_URL'],
  ] as const) {
    it(`--dry-run names the MCP URL the entry holds (${label})`, async () => {
      const home = await tempDir('svcctl-defaults-');
      const run = await runCli([...PROXY_DRY_RUN, ...extra], { home, env });
      assert.equal(run.code, 0, run.stderr);
      assert.ok(run.stderr.includes(`The entry points at ${MCP_URL} (from ${source}).`), run.stderr);
      // mcp-remote's argument in the diff of the file that would be written.
      assert.ok(run.stdout.includes(`"${MCP_URL}"`), run.stdout);
    });
  }
});

describe('mcp install --config --format without --auth: the way out it names is one a --format file takes', () => {
  it('says the token helper cannot be used there and recommends --auth bearer, which then writes the entry', async () => {
    const home = await tempDir('svcctl-defaults-');
    const file = join(home, 'mcp.json');
    const args = ['mcp', 'install', '--config', file, '--format', 'mcpServers', '--mode', 'remote', '--secrets', 'ref'];
    const run = await runCli(args, { home, env: ENV });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /a --format file cannot run the svcctl token helper/);
    assert.doesNotMatch(run.stderr, /--token helper/);
    const advised = /; (--auth bearer) sends the access token from SERVICE_ACCESS_TOKEN instead\./.exec(run.stderr);
    assert.ok(advised, run.stderr);
    // What it recommends works on this very target.
    const again = await runCli([...args, '--name', 'bearer', ...advised[1]!.split(' ')], { home, env: ENV });
    assert.equal(again.code, 0, again.stderr);
    assert.match(await readFile(file, 'utf8'), /"Authorization": "Bearer \$\{SERVICE_ACCESS_TOKEN\}"/);
  });
});

describe('mcp install --mode remote without --auth: one default on and off a terminal', () => {
  for (const [login, expected, check] of [
    ['none', 'password headers', assertPasswordHeaders],
    ['expired', 'password headers', assertPasswordHeaders],
    ['saved', 'the svcctl token helper', assertTokenHelper],
  ] as const) {
    it(`login ${login}: -q at a terminal asks nothing and writes what a script writes (${expected})`, async () => {
      const offHome = await homeWith(login);
      const off = await runCli([...REMOTE, '-q'], { home: offHome, env: ENV });
      assert.equal(off.code, 0, off.stderr);
      const atHome = await homeWith(login);
      const at = await atTerminalWithin([...REMOTE, '-q'], atHome);
      assert.equal(at.code, 0, at.screen);
      assert.doesNotMatch(at.screen, AUTH_QUESTION);
      check(await entryOf(offHome));
      assert.deepEqual(await entryOf(atHome), await entryOf(offHome));
      // The password default is a warning (-q shows it), the same words on the terminal and off it.
      if (expected === 'password headers') {
        assert.match(off.stderr, /warning: Auth: password headers \(no --auth given, and .*no unexpired login/);
        assert.ok(at.screen.includes(off.stderr.trim()), at.screen);
      } else assert.equal(off.stderr, '');
    });

    it(`login ${login}: at a terminal the question preselects the same default (Enter: ${expected})`, async () => {
      const home = await homeWith(login);
      const run = await atTerminalWithin(REMOTE, home, [[AUTH_QUESTION, ENTER]]);
      assert.equal(run.code, 0, run.screen);
      check(await entryOf(home));
      assert.match(
        run.screen,
        new RegExp(`default: ${expected === 'password headers' ? 'password headers' : 'the token helper'}`),
      );
    });
  }

  it("a project's shared file gets the password headers by reference, logged in or not", async () => {
    const home = await homeWith('saved');
    const project = join(home, 'proj');
    await mkdir(project);
    const run = await runCli([...REMOTE, '--scope', 'project'], { home, env: ENV, cwd: project });
    assert.equal(run.code, 0, run.stderr);
    const entry = JSON.parse(await readFile(join(project, '.cursor', 'mcp.json'), 'utf8')).mcpServers.service;
    assertPasswordHeaders(entry);
    assert.match(run.stderr, /no --auth given, and a project's file is shared/);
  });

  it('a different entry at a terminal with -q: no question, nothing written, exit 7 as off a terminal', async () => {
    const home = await homeWith('none');
    const other = '{ "mcpServers": { "service": { "url": "https://other.example/mcp" } } }\n';
    await mkdir(join(home, '.cursor'));
    await writeFile(join(home, '.cursor', 'mcp.json'), other);
    const run = await atTerminalWithin([...REMOTE, '--auth', 'password', '-q'], home);
    assert.equal(run.code, 7, run.screen);
    assert.doesNotMatch(run.screen, /Replace the existing/);
    assert.equal(await readFile(join(home, '.cursor', 'mcp.json'), 'utf8'), other);
  });

  it('--no-input at a terminal asks nothing either', async () => {
    const home = await homeWith('saved');
    const run = await atTerminalWithin([...REMOTE, '--no-input'], home);
    assert.equal(run.code, 0, run.screen);
    assert.doesNotMatch(run.screen, AUTH_QUESTION);
    assertTokenHelper(await entryOf(home));
    assert.match(run.screen, /Auth: the svcctl token helper \(no --auth given, and a login is saved for/);
  });

  it('-q without --client at a terminal asks for the clients only: mode and login method are the defaults', async () => {
    const home = await homeWith('none');
    await mkdir(join(home, '.cursor'));
    const run = await atTerminalWithin(['mcp', 'install', '-q'], home, [[/Which clients\?/, ` ${ENTER}`]]);
    assert.equal(run.code, 0, run.screen);
    assert.doesNotMatch(run.screen, /Which mode\?|Which login method/);
    assert.equal((await entryOf(home)).command, 'npx', 'local mode, the default');
  });
});
