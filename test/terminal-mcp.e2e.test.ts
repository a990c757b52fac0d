/**
 * `svcctl mcp install` and `mcp doctor` at a real terminal (util-linux `script`): the conflict prompt, a file
 * changed by someone else while the prompt waits (nothing written, exit 7), the checklist of the clients found on
 * this machine when --client is not given (the editors, and the CLI agents by the folders each creates on first
 * run), the question of which login method a remote entry uses (on stderr only), doctor's question before it
 * starts a program a cloned project brought, and uninstall --all's question after it lists what goes.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse as parseJsonc } from 'jsonc-parser';
import { BIN, placeFile } from './helpers/cli.js';
import { commandEntry, DOCTOR, neverAppears, project, SECRETS } from './helpers/project-fixtures.js';
import { saveToken } from './helpers/saved-token.js';
import { tempDir } from './helpers/temp-dirs.js';
import { hasScript, shellQuote, underTerminal } from './helpers/terminal.js';

const skip = !hasScript && 'util-linux script is not installed';
const svcctl = `${shellQuote(process.execPath)} ${shellQuote(BIN)}`;
const ENV = { SERVICE_BASE_URL: 'https://acme.example.com/api' };
/** Only a hung command meets it: every test waits for what the terminal shows or for the end. */
const KILL_AFTER_MS = 60_000;
const install = (args: string, dir: string) => underTerminal(`${svcctl} mcp install ${args}`, dir, ENV, KILL_AFTER_MS);
const OTHER_ENTRY = '{\n  "mcpServers": {\n    "service": { "command": "old-server", "args": ["--stale"] }\n  }\n}\n';
// The folder each CLI agent creates on first run (docs/clients-agents.md).
const AGENT_FOLDERS: Record<string, string> = {
  opencode: '.config/opencode',
  'Kilo Code CLI': '.config/kilo',
  'GitHub Copilot CLI': '.copilot',
  'Qwen Code': '.qwen',
  'Augment (auggie)': '.augment',
  'Factory Droid': '.factory',
  Amp: '.config/amp',
  Crush: '.config/crush',
};

describe('mcp install at a terminal', { skip, concurrency: true }, () => {
  it('--mode remote without --auth asks on stderr (stdout gets none of it); logged in, Enter writes the token-helper entry', async () => {
    const home = await tempDir('svcctl-prompts-tty-');
    await saveToken(home, ENV.SERVICE_BASE_URL, 'tok-terminal-mcp-1');
    const session = underTerminal(
      `${svcctl} mcp install --client cursor --mode remote > stdout.txt`,
      home,
      ENV,
      KILL_AFTER_MS,
    );
    await session.waitFor(/Which login method should the entry use\?[\s\S]*sends your account password/);
    session.type('\r');
    assert.equal(await session.done, 0, session.screen());
    assert.equal(await readFile(join(home, 'stdout.txt'), 'utf8'), '', 'nothing of the prompt on stdout');
    const entry = JSON.parse(await readFile(join(home, '.cursor', 'mcp.json'), 'utf8')).mcpServers.service;
    assert.deepEqual(entry.args.slice(-2), ['mcp', 'proxy'], JSON.stringify(entry));
  });

  it('asks before replacing a different entry, and replaces it whole on "yes"', async () => {
    const dir = await tempDir('svcctl-mcp-tty-');
    const file = await placeFile(dir, '.cursor/mcp.json', OTHER_ENTRY);
    const session = install('--client cursor', dir);
    await session.waitFor(/Replace the existing 'service' entry/);
    session.type('y\r');
    assert.equal(await session.done, 0, session.screen());
    const written = JSON.parse(await readFile(file, 'utf8'));
    assert.equal(written.mcpServers.service.command, 'npx');
    assert.ok(!JSON.stringify(written).includes('--stale'), 'no stale key survives');
    assert.equal(await readFile(`${file}.bak`, 'utf8'), OTHER_ENTRY);
  });

  it('a "no" at the prompt says cancelled, not error, writes nothing and exits 7', async () => {
    const dir = await tempDir('svcctl-mcp-tty-');
    const file = await placeFile(dir, '.cursor/mcp.json', OTHER_ENTRY);
    const session = install('--client cursor', dir);
    await session.waitFor(/Replace the existing 'service' entry/);
    session.type('n\r');
    assert.equal(await session.done, 7, session.screen());
    assert.match(session.screen(), /cancelled: nothing was written/);
    assert.doesNotMatch(session.screen(), /error:/);
    assert.equal(await readFile(file, 'utf8'), OTHER_ENTRY);
  });

  it('uninstall --all lists what goes, then asks; "y" removes the entry, the file and the folder install made', async () => {
    const dir = await tempDir('svcctl-mcp-tty-');
    assert.equal(await install('--client cursor', dir).done, 0);
    const session = underTerminal(`${svcctl} mcp uninstall --all`, dir, ENV, KILL_AFTER_MS);
    await session.waitFor(
      /cursor \(user scope\): 'service' → https:\/\/acme\.example\.com\/api[\s\S]*Remove this entry\?/,
    );
    session.type('y\r');
    assert.equal(await session.done, 0, session.screen());
    assert.ok(!existsSync(join(dir, '.cursor')), session.screen());
  });

  it('writes nothing (exit 7) when the file changes on disk while the prompt waits', async () => {
    const dir = await tempDir('svcctl-mcp-tty-');
    const file = await placeFile(dir, '.cursor/mcp.json', OTHER_ENTRY);
    const session = install('--client cursor', dir);
    await session.waitFor(/Replace the existing 'service' entry/);
    // Another program (the editor itself, say) rewrites the file meanwhile.
    const theirs = OTHER_ENTRY.replace('"--stale"', '"--theirs"');
    await writeFile(file, theirs);
    session.type('y\r');
    assert.equal(await session.done, 7, session.screen());
    assert.equal(await readFile(file, 'utf8'), theirs, 'their change is kept');
    assert.match(session.screen(), /changed/);
  });

  it('without --client, offers a checklist of the clients found on this machine', async () => {
    const dir = await tempDir('svcctl-mcp-tty-');
    await mkdir(join(dir, '.cursor'), { recursive: true }); // Cursor is installed here; nothing else is
    const session = install('', dir);
    await session.waitFor(/Which clients\?/);
    assert.match(session.screen(), /Cursor/);
    session.type(' \r'); // select the first (only) client, confirm
    await session.waitFor(/mode/i);
    session.type('\r'); // the default mode: local
    assert.equal(await session.done, 0, session.screen());
    const written = JSON.parse(await readFile(join(dir, '.cursor', 'mcp.json'), 'utf8'));
    assert.deepEqual(written.mcpServers.service.args, ['-y', 'service-mcp-server@latest']);
  });

  it('the checklist lists the CLI agents found in HOME (and no client that is not there), and installs into the chosen one', async () => {
    const home = await tempDir('svcctl-agents-tty-');
    for (const folder of Object.values(AGENT_FOLDERS)) await mkdir(join(home, folder), { recursive: true });
    const session = install('--mode remote --auth bearer', home);
    await session.waitFor(/Which clients\?/);
    await session.waitFor(/Crush/);
    for (const label of Object.keys(AGENT_FOLDERS))
      assert.ok(session.screen().includes(label), `${label} listed:\n${session.screen()}`);
    for (const absent of ['Cursor', 'Claude Desktop', 'Gemini CLI'])
      assert.ok(!session.screen().includes(absent), `${absent} is not installed here`);
    session.type(' \r'); // the first one found: opencode
    assert.equal(await session.done, 0, session.screen());
    const written = parseJsonc(await readFile(join(home, '.config', 'opencode', 'opencode.jsonc'), 'utf8'));
    assert.deepEqual(written.mcp.service, {
      type: 'remote',
      url: 'https://acme.example.com/mcp',
      headers: { Authorization: 'Bearer {env:SERVICE_ACCESS_TOKEN}' },
    });
  });
});

describe('mcp doctor at a terminal, before a program a cloned project brought', { skip, concurrency: true }, () => {
  for (const [answer, runs] of [
    ['n', false],
    ['y', true],
  ] as const) {
    it(`asks, showing the command line and variable names only; '${answer}' ${runs ? 'runs it' : 'does not'}`, async () => {
      const p = await project(commandEntry);
      const command = `cd ${shellQuote(p.dir)} && ${svcctl} ${DOCTOR.join(' ')}`;
      const session = underTerminal(command, p.home, SECRETS, KILL_AFTER_MS);
      await session.waitFor(/Run it\?/);
      assert.equal(existsSync(p.marker), false);
      assert.match(
        session.screen(),
        /start `sh -c 'env > [^`]*stolen\.txt'` with PATH, HOME and the other basic variables and SERVICE_INGEST_TOKEN, SERVICE_PASSWORD/,
      );
      session.type(`${answer}\r`);
      const code = await session.done;
      assert.equal(code, 8, session.screen());
      assert.equal(session.screen().includes(SECRETS.SERVICE_PASSWORD), false);
      if (runs) assert.equal(existsSync(p.marker), true, session.screen());
      else {
        assert.match(session.screen(), /not run: you did not allow doctor to start/);
        await neverAppears(p.marker);
      }
    });
  }
});
