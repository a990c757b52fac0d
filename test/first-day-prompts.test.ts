/**
 * The questions svcctl asks a person at a terminal (in-process, helpers/fake-terminal.ts): which auth a
 * remote entry uses when --auth is not given, and whether logout also forgets the saved deployment.
 * Off a terminal nothing is asked.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { CTRL_C, DOWN, ENTER, runAtTerminal } from './helpers/fake-terminal.js';
import { saveToken } from './helpers/saved-token.js';
import { tempDir } from './helpers/temp-dirs.js';

const BASE = 'https://acme.example.com/api';
const ENV = { SERVICE_BASE_URL: BASE, SERVICE_EMAIL: 'ops@acme.example' };
const AUTH_QUESTION = /Which login method should the entry use\?/;
const cursorFile = (home: string): string => join(home, '.cursor', 'mcp.json');
const entryOf = async (home: string): Promise<Record<string, unknown>> =>
  JSON.parse(await readFile(cursorFile(home), 'utf8')).mcpServers.service;

describe('mcp install --mode remote (or proxy) without --auth', () => {
  const install = ['mcp', 'install', '--client', 'cursor', '--mode', 'remote'];
  // With a login saved the token helper is the default (mcp-install-defaults.test.ts has the others).
  const loggedIn = async (): Promise<string> => {
    const home = await tempDir('svcctl-prompts-');
    await saveToken(home, BASE, 'tok-prompts-1');
    return home;
  };

  it('logged in, on a terminal asks, the token helper first and the default; Enter writes a helper entry', async () => {
    const home = await loggedIn();
    const run = await runAtTerminal(install, { home, env: ENV, answers: [[AUTH_QUESTION, ENTER]] });
    assert.equal(run.code, 0, run.screen);
    const lines = run.screen.split('\n');
    const first = lines.findIndex((line) => /token helper —/.test(line));
    const second = lines.findIndex((line) => /access token from svcctl login/.test(line));
    const third = lines.findIndex((line) => /sends your account password with every request/.test(line));
    assert.ok(first > 0 && first < second && second < third, run.screen);
    const entry = await entryOf(home);
    // Cursor has no headers command: the helper entry runs `svcctl mcp proxy`, which sends fresh tokens.
    assert.deepEqual((entry.args as string[]).slice(-2), ['mcp', 'proxy'], JSON.stringify(entry));
    assert.equal(entry.headers, undefined);
    assert.equal(run.stdout, '', 'the prompt and messages go to stderr');
    assert.doesNotMatch(run.screen, /no --auth given/);
  });

  it('the third choice writes the email and password headers', async () => {
    const home = await loggedIn();
    const run = await runAtTerminal(install, { home, env: ENV, answers: [[AUTH_QUESTION, `${DOWN}${DOWN}${ENTER}`]] });
    assert.equal(run.code, 0, run.screen);
    const headers = (await entryOf(home)).headers as Record<string, string>;
    assert.deepEqual(Object.keys(headers).sort(), ['X-Service-Email', 'X-Service-Password'].sort());
  });

  it('Ctrl-C at the question exits 130 and writes nothing', async () => {
    const home = await tempDir('svcctl-prompts-');
    const run = await runAtTerminal(install, { home, env: ENV, answers: [[AUTH_QUESTION, CTRL_C]] });
    assert.equal(run.code, 130, run.screen);
    assert.ok(!existsSync(cursorFile(home)));
  });

  it('a --format file cannot run a helper: the question starts at the access token, password headers the default', async () => {
    const home = await loggedIn();
    const args = ['mcp', 'install', '--config', 'mcp.json', '--format', 'mcpServers', '--mode', 'remote'];
    // A --format file holds literal values: the password comes from the environment, not a second question.
    const env = { ...ENV, SERVICE_PASSWORD: 'pw-1' };
    const run = await runAtTerminal(args, { home, env, answers: [[AUTH_QUESTION, ENTER]] });
    assert.equal(run.code, 0, run.screen);
    assert.doesNotMatch(run.screen, /token helper —/);
    assert.match(run.screen, /default: password headers\)/);
    const entry = JSON.parse(await readFile(join(home, 'mcp.json'), 'utf8')).mcpServers.service;
    assert.deepEqual(Object.keys(entry.headers).sort(), ['X-Service-Email', 'X-Service-Password']);
  });

  it('without --client, remote mode chosen at the prompt gets the same question', async () => {
    const home = await loggedIn();
    await mkdir(join(home, '.cursor'));
    const run = await runAtTerminal(['mcp', 'install'], {
      home,
      env: ENV,
      answers: [
        [/Which clients\?/, ` ${ENTER}`],
        [/Which mode\?/, `${DOWN}${ENTER}`],
        [AUTH_QUESTION, ENTER],
      ],
    });
    assert.equal(run.code, 0, run.screen);
    assert.deepEqual(((await entryOf(home)).args as string[]).slice(-2), ['mcp', 'proxy']);
  });

  it('off a terminal nothing is asked and a warning says which method was written, and why', async () => {
    const home = await tempDir('svcctl-prompts-');
    const run = await runCli(install, { home, env: ENV });
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, AUTH_QUESTION);
    assert.match(
      run.stderr,
      /warning: Auth: password headers \(no --auth given, and svcctl holds no unexpired login for https:\/\/acme\.example\.com\/api\)/,
    );
  });

  it('--mode proxy gets the same question: Enter writes a helper entry, not the password in mcp-remote headers', async () => {
    const home = await loggedIn();
    const proxy = ['mcp', 'install', '--client', 'cursor', '--mode', 'proxy'];
    const run = await runAtTerminal(proxy, { home, env: ENV, answers: [[AUTH_QUESTION, ENTER]] });
    assert.equal(run.code, 0, run.screen);
    const entry = await entryOf(home);
    assert.deepEqual((entry.args as string[]).slice(-2), ['mcp', 'proxy'], JSON.stringify(entry));
    assert.doesNotMatch(JSON.stringify(entry), /mcp-remote|SERVICE_PASSWORD|X-Service-Password/);
  });

  it('--auth given, or --no-input: no question', async () => {
    const home = await tempDir('svcctl-prompts-');
    for (const extra of [['--auth', 'password'], ['--no-input']]) {
      const run = await runAtTerminal([...install, ...extra, '--force'], { home, env: ENV });
      assert.equal(run.code, 0, run.screen);
      assert.doesNotMatch(run.screen, AUTH_QUESTION);
    }
  });
});

describe('logout of a saved deployment', () => {
  const QUESTION = /Also forget the deployment 'prod' \(https:\/\/acme\.example\.com\/api\)\?/;
  const saved = async (): Promise<string> => {
    const home = await tempDir('svcctl-prompts-');
    const add = await runCli(['deployment', 'add', 'prod', BASE], { home });
    assert.equal(add.code, 0, add.stderr);
    return home;
  };
  const names = async (home: string): Promise<string[]> =>
    JSON.parse((await runCli(['--json', 'deployment', 'list'], { home })).stdout).map((d: { name: string }) => d.name);

  it('on a terminal asks, default no: Enter keeps the deployment', async () => {
    const home = await saved();
    const run = await runAtTerminal(['logout'], { home, answers: [[QUESTION, ENTER]] });
    assert.equal(run.code, 0, run.screen);
    assert.match(run.screen, /\(y\/N\)/);
    assert.deepEqual(await names(home), ['prod']);
    assert.match(run.screen, /'svcctl deployment remove prod' forgets it too/);
  });

  it('"y" forgets it as deployment remove does', async () => {
    const home = await saved();
    const run = await runAtTerminal(['logout'], { home, answers: [[QUESTION, `y${ENTER}`]] });
    assert.equal(run.code, 0, run.screen);
    assert.match(run.screen, /deployment 'prod' removed/);
    assert.deepEqual(await names(home), []);
    assert.equal(run.stdout, '');
  });

  it('off a terminal nothing is asked and it is kept; --forget-deployment forgets it without asking', async () => {
    const home = await saved();
    const kept = await runCli(['logout'], { home });
    assert.equal(kept.code, 0, kept.stderr);
    assert.doesNotMatch(kept.stderr, QUESTION);
    assert.match(kept.stderr, /'svcctl deployment remove prod' forgets it too/);
    assert.deepEqual(await names(home), ['prod']);
    const forgot = await runCli(['--json', 'logout', '--forget-deployment'], { home });
    assert.equal(forgot.code, 0, forgot.stderr);
    assert.deepEqual(JSON.parse(forgot.stdout), { base_url: BASE, removed: false, deployment_removed: 'prod' });
    assert.deepEqual(await names(home), []);
  });

  it('--no-input on a terminal: no question, the deployment stays', async () => {
    const home = await saved();
    const run = await runAtTerminal(['--no-input', 'logout'], { home });
    assert.equal(run.code, 0, run.screen);
    assert.deepEqual(await names(home), ['prod']);
  });
});
