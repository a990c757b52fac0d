/**
 * Colours appear only on a terminal, and never with NO_COLOR or --no-color
 * (chalk alone does not honour NO_COLOR). The error of a bad base URL is the
 * probe: its "error:" prefix is red when colours are on.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { BIN, makeTempDir, runCli } from './helpers/cli.js';
import { hasScript, shellQuote, underTerminal } from './helpers/terminal.js';

const RED_ERROR = '\x1b[31merror:';
const command = (extra = ''): string =>
  `${shellQuote(process.execPath)} ${shellQuote(BIN)} event send --title x --base-url http://host.example ${extra}`;
const skip = !hasScript && 'util-linux script is not installed';

describe('colours', () => {
  let home: string;
  before(async () => {
    home = await makeTempDir('svcctl-color-');
  });
  after(() => rm(home, { recursive: true, force: true }));

  it('on a terminal without NO_COLOR: the error prefix is red', { skip }, async () => {
    const session = underTerminal(command(), home, { NO_COLOR: undefined, SERVICE_INGEST_TOKEN: 't' });
    assert.equal(await session.done, 2);
    assert.ok(session.screen().includes(RED_ERROR), JSON.stringify(session.screen()));
  });

  it('on a terminal with NO_COLOR=1, or with --no-color: no escape sequences', { skip }, async () => {
    const withEnv = underTerminal(command(), home, { NO_COLOR: '1', SERVICE_INGEST_TOKEN: 't' });
    assert.equal(await withEnv.done, 2);
    const withFlag = underTerminal(command('--no-color'), home, { NO_COLOR: undefined, SERVICE_INGEST_TOKEN: 't' });
    assert.equal(await withFlag.done, 2);
    for (const screen of [withEnv.screen(), withFlag.screen()]) {
      assert.match(screen, /error: .*must end in \/api/);
      assert.ok(!screen.includes('\x1b['), JSON.stringify(screen));
    }
  });

  it('not on a terminal: no escape sequences, even without NO_COLOR', async () => {
    const result = await runCli(['event', 'send', '--title', 'x', '--base-url', 'http://host.example'], {
      env: { NO_COLOR: undefined, SERVICE_INGEST_TOKEN: 't' },
    });
    assert.equal(result.code, 2);
    assert.ok(!result.stderr.includes('\x1b['), JSON.stringify(result.stderr));
  });
});
