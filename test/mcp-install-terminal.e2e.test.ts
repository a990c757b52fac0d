/**
 * `svcctl mcp install` at a terminal (util-linux `script`): the conflict prompt,
 * a file changed by someone else while the prompt waits (nothing written, exit
 * 7), and the checklist of detected clients when --client is not given.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BIN, makeTempDir, placeFile } from './helpers/cli.js';
import { hasScript, shellQuote, underTerminal } from './helpers/terminal.js';

const ENV = { SERVICE_BASE_URL: 'https://acme.example.com/api' };
const install = (args: string): string => `${shellQuote(process.execPath)} ${shellQuote(BIN)} mcp install ${args}`;
const OTHER_ENTRY = '{\n  "mcpServers": {\n    "service": { "command": "old-server", "args": ["--stale"] }\n  }\n}\n';
const skip = !hasScript && 'util-linux script is not installed';

describe('mcp install at a terminal', () => {
  let home: string;
  before(async () => {
    home = await makeTempDir('svcctl-mcp-tty-');
  });
  after(() => rm(home, { recursive: true, force: true }));

  it('asks before replacing a different entry, and replaces it whole on "yes"', { skip }, async () => {
    const dir = join(home, 'yes');
    const file = await placeFile(dir, '.cursor/mcp.json', OTHER_ENTRY);
    const session = underTerminal(install('--client cursor'), dir, ENV);
    await session.waitFor(/Replace the existing 'service' entry/);
    session.type('y\r');
    assert.equal(await session.done, 0, session.screen());
    const written = JSON.parse(await readFile(file, 'utf8'));
    assert.equal(written.mcpServers.service.command, 'npx');
    assert.ok(!JSON.stringify(written).includes('--stale'), 'no stale key survives');
    assert.equal(await readFile(`${file}.bak`, 'utf8'), OTHER_ENTRY);
  });

  it('a "no" at the prompt says cancelled, not error, writes nothing and exits 7', { skip }, async () => {
    const dir = join(home, 'no');
    const file = await placeFile(dir, '.cursor/mcp.json', OTHER_ENTRY);
    const session = underTerminal(install('--client cursor'), dir, ENV);
    await session.waitFor(/Replace the existing 'service' entry/);
    session.type('n\r');
    assert.equal(await session.done, 7, session.screen());
    assert.match(session.screen(), /cancelled: nothing was written/);
    assert.doesNotMatch(session.screen(), /error:/);
    assert.equal(await readFile(file, 'utf8'), OTHER_ENTRY);
  });

  it('writes nothing (exit 7) when the file changes on disk while the prompt waits', { skip }, async () => {
    const dir = join(home, 'race');
    const file = await placeFile(dir, '.cursor/mcp.json', OTHER_ENTRY);
    const session = underTerminal(install('--client cursor'), dir, ENV);
    await session.waitFor(/Replace the existing 'service' entry/);
    // Another program (the editor itself, say) rewrites the file meanwhile.
    const theirs = OTHER_ENTRY.replace('"--stale"', '"--theirs"');
    await writeFile(file, theirs);
    session.type('y\r');
    assert.equal(await session.done, 7, session.screen());
    assert.equal(await readFile(file, 'utf8'), theirs, 'their change is kept');
    assert.match(session.screen(), /changed/);
  });

  it('without --client, offers a checklist of the clients found on this machine', { skip }, async () => {
    const dir = join(home, 'checklist');
    await mkdir(join(dir, '.cursor'), { recursive: true }); // Cursor is installed here; nothing else is
    const session = underTerminal(install(''), dir, ENV);
    await session.waitFor(/Which clients\?/);
    assert.match(session.screen(), /Cursor/);
    session.type(' \r'); // select the first (only) client, confirm
    await session.waitFor(/mode/i);
    session.type('\r'); // the default mode: local
    assert.equal(await session.done, 0, session.screen());
    const written = JSON.parse(await readFile(join(dir, '.cursor', 'mcp.json'), 'utf8'));
    assert.deepEqual(written.mcpServers.service.args, ['-y', 'service-mcp-server@latest']);
  });
});
