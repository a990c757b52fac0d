/**
 * `svcctl mcp install` without --client at a terminal finds the CLI agents of
 * issue 9 by their folders (each row's detectPath) among every client of the
 * table, and installs into the one chosen.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { parse as parseJsonc } from 'jsonc-parser';
import { BIN, makeTempDir } from './helpers/cli.js';
import { hasScript, shellQuote, underTerminal } from './helpers/terminal.js';

const skip = !hasScript && 'util-linux script is not installed';
// The folder each client creates on first run (docs/clients-agents.md).
const FOLDERS: Record<string, string> = {
  opencode: '.config/opencode',
  'Kilo Code CLI': '.config/kilo',
  'GitHub Copilot CLI': '.copilot',
  'Qwen Code': '.qwen',
  'Augment (auggie)': '.augment',
  'Factory Droid': '.factory',
  Amp: '.config/amp',
  Crush: '.config/crush',
};

let home: string;
before(async () => {
  home = await makeTempDir('svcctl-agents-tty-');
  for (const folder of Object.values(FOLDERS)) await mkdir(join(home, folder), { recursive: true });
});
after(() => rm(home, { recursive: true, force: true }));

it('the checklist lists the agents found in HOME (and no client that is not there), and installs into the chosen one', {
  skip,
}, async () => {
  const command = `${shellQuote(process.execPath)} ${shellQuote(BIN)} mcp install --mode remote --auth bearer`;
  const session = underTerminal(command, home, { SERVICE_BASE_URL: 'https://acme.example.com/api' });
  await session.waitFor(/Which clients\?/);
  await session.waitFor(/Crush/);
  for (const label of Object.keys(FOLDERS))
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
