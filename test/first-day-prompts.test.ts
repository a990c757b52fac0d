/**
 * The questions svcctl asks a person at a terminal (in-process, helpers/fake-terminal.ts): which auth a
 * remote entry uses when --auth is not given, and whether logout also forgets the saved deployment.
 * Off a terminal nothing is asked.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCliInProcess } from './helpers/cli-in-process.js';
import { CTRL_C, DOWN, ENTER, runAtTerminal } from './helpers/fake-terminal.js';
import { tempDir } from './helpers/temp-dirs.js';

const BASE = 'https://acme.example.com/api';
const ENV = { SERVICE_BASE_URL: BASE, SERVICE_EMAIL: 'ops@acme.example' };
const AUTH_QUESTION = /Which login method should the entry use\?/;
const cursorFile = (home: string): string => join(home, '.cursor', 'mcp.json');
const entryOf = async (home: string): Promise<Record<string, unknown>> =>
  JSON.parse(await readFile(cursorFile(home), 'utf8')).mcpServers.service;

describe('mcp install --mode remote without --auth', () => {
  const install = ['mcp', 'install', '--client', 'cursor', '--mode', 'remote'];

  it('on a terminal asks, the token helper first and the default; Enter writes a helper entry', async () => {
    const home = await tempDir('svcctl-prompts-');
    const run = await runAtTerminal(install, { home, env: ENV, answers: [[AUTH_QUESTION, ENTER]] });
    assert.equal(run.code, 0, run.screen);
    const lines = run.screen.split('\n');
    const first = lines.findIndex((line) => /token helper/.test(line));
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
    const home = await tempDir('svcctl-prompts-');
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

  it('off a terminal nothing is asked and the ✓ line says which method was written', async () => {
    const home = await tempDir('svcctl-prompts-');
    const run = await runCliInProcess(install, { home, env: ENV });
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, AUTH_QUESTION);
    assert.match(run.stderr, /Auth: password headers \(no --auth given\)/);
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
