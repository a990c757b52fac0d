/**
 * The auth question of `mcp install --mode remote` on a real terminal (util-linux `script`): it is drawn on
 * stderr (stdout, sent to a file here, gets none of it) and Enter takes the token helper. The other answers,
 * Ctrl-C and logout's question are driven in-process (first-day-prompts.test.ts).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { it } from 'node:test';
import { BIN } from './helpers/cli.js';
import { hasScript, shellQuote, underTerminal } from './helpers/terminal.js';
import { tempDir } from './helpers/temp-dirs.js';

it('mcp install --mode remote asks on the terminal; Enter writes the token-helper entry', {
  skip: !hasScript && 'util-linux script is not installed',
}, async () => {
  const home = await tempDir('svcctl-prompts-tty-');
  const command = [process.execPath, BIN, 'mcp', 'install', '--client', 'cursor', '--mode', 'remote']
    .map(shellQuote)
    .join(' ');
  const session = underTerminal(`${command} > stdout.txt`, home, { SERVICE_BASE_URL: 'https://acme.example.com/api' });
  await session.waitFor(/Which login method should the entry use\?[\s\S]*sends your account password/);
  session.type('\r');
  assert.equal(await session.done, 0, session.screen());
  assert.equal(await readFile(join(home, 'stdout.txt'), 'utf8'), '', 'nothing of the prompt on stdout');
  const entry = JSON.parse(await readFile(join(home, '.cursor', 'mcp.json'), 'utf8')).mcpServers.service;
  assert.deepEqual(entry.args.slice(-2), ['mcp', 'proxy'], JSON.stringify(entry));
});
