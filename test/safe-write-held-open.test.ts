/**
 * A config file another program holds open (Claude Desktop running): Windows refuses the rename over it with EPERM,
 * EBUSY or EACCES. svcctl tries again with growing pauses for ~3 s, on the file and on its .bak, makes the .bak
 * before the file is replaced, and then names the program to close. The errors are injected through the rename
 * seam and the pauses are recorded, not slept; the files are real, in a temp folder. Where the system itself refuses
 * such a rename (Node for Windows under Wine: scripts/test-win32.sh) a file is also held open for real.
 */
import assert from 'node:assert/strict';
import { mkdir, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CliError } from '../src/core/errors.js';
import { isHeldOpenError, type HeldOpenOptions } from '../src/fs/held-open.js';
import { readSnapshot, updateSafely, writeSafely } from '../src/fs/safe-write.js';
import { runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

let dir: string;
before(async () => {
  dir = await tempDir('svcctl-held-open-');
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const heldError = (code: string): NodeJS.ErrnoException =>
  Object.assign(new Error(`${code}: operation not permitted, rename`), { code });

/** A Windows whose renames onto `held` fail with `code` the first `times` times; records renames and pauses. */
function heldFile(held: string, times: number, code = 'EBUSY') {
  const renames: string[] = [];
  const pauses: number[] = [];
  let refusals = 0;
  const options: HeldOpenOptions = {
    platform: 'win32',
    rename: async (from, to) => {
      renames.push(to);
      if (to === held && refusals < times) {
        refusals += 1;
        throw heldError(code);
      }
      await rename(from, to);
    },
    pause: async (ms) => {
      pauses.push(ms);
    },
  };
  return { options, renames, pauses, refused: () => refusals };
}

async function configFile(name: string, content: string): Promise<string> {
  const sub = join(dir, name);
  await mkdir(sub);
  const file = join(sub, 'claude_desktop_config.json');
  await writeFile(file, content);
  return file;
}

const total = (pauses: number[]): number => pauses.reduce((sum, ms) => sum + ms, 0);

describe('a config file held open by another program (Windows)', () => {
  it('a file held for a moment is written once it is let go; the pauses grow', async () => {
    const file = await configFile('moment', 'old\n');
    const held = heldFile(file, 3, 'EPERM');
    await writeSafely(await readSnapshot(file), 'new\n', { heldOpen: held.options });
    assert.equal(await readFile(file, 'utf8'), 'new\n');
    assert.equal(await readFile(`${file}.bak`, 'utf8'), 'old\n');
    assert.deepEqual(held.pauses, [50, 100, 200]);
  });

  it('held past ~3 s: exit 7 naming the program to close; the file is unchanged and no temp file is left', async () => {
    const file = await configFile('held', 'old\n');
    const held = heldFile(file, Number.POSITIVE_INFINITY);
    await assert.rejects(
      writeSafely(await readSnapshot(file), 'new\n', { heldOpen: { ...held.options, holder: 'Claude Desktop' } }),
      (error: unknown) => {
        assert.ok(error instanceof CliError);
        assert.equal(error.exitCode, 7);
        assert.match(error.message, /cannot replace .*claude_desktop_config\.json: another program has it open/);
        assert.match(error.message, /it was not changed, and .*claude_desktop_config\.json\.bak now holds it as it is/);
        assert.doesNotMatch(error.message, /permission denied/);
        assert.equal(error.hint, 'close Claude Desktop and run the command again');
        return true;
      },
    );
    assert.equal(total(held.pauses), 3000, 'waited 3 s in all');
    assert.ok(held.pauses.every((ms, i) => i === 0 || ms >= held.pauses[i - 1]! || i === held.pauses.length - 1));
    assert.equal(await readFile(file, 'utf8'), 'old\n');
    assert.equal(await readFile(`${file}.bak`, 'utf8'), 'old\n', 'what the message says the .bak holds');
    assert.deepEqual((await readdir(join(file, '..'))).sort(), [
      'claude_desktop_config.json',
      'claude_desktop_config.json.bak',
    ]);
  });

  it('the .bak is made before the file is replaced, and a held .bak stops the write', async () => {
    const file = await configFile('bak', 'old\n');
    await writeFile(`${file}.bak`, 'older\n');
    const held = heldFile(`${file}.bak`, Number.POSITIVE_INFINITY, 'EACCES');
    await assert.rejects(
      writeSafely(await readSnapshot(file), 'new\n', { heldOpen: held.options }),
      (error: unknown) => {
        assert.ok(error instanceof CliError);
        assert.equal(error.exitCode, 7);
        assert.match(
          error.message,
          /cannot write the backup .*\.bak: another program has it open .*nothing was written/,
        );
        assert.match(error.hint ?? '', /close the program that has it open/);
        return true;
      },
    );
    assert.equal(total(held.pauses), 3000, 'the .bak is waited for like the file');
    assert.equal(await readFile(file, 'utf8'), 'old\n', 'the file was not replaced without its backup');
    assert.equal(await readFile(`${file}.bak`, 'utf8'), 'older\n');
    assert.deepEqual((await readdir(join(file, '..'))).sort(), [
      'claude_desktop_config.json',
      'claude_desktop_config.json.bak',
    ]);

    const order = heldFile('none', 0);
    await writeSafely(await readSnapshot(file), 'new\n', { heldOpen: order.options });
    assert.deepEqual(order.renames, [`${file}.bak`, file], 'the .bak first, then the file');
  });

  it('an update (mcp install) passes the holder through, and its lock is released', async () => {
    const file = await configFile('update', '{}\n');
    const held = heldFile(file, Number.POSITIVE_INFINITY);
    await assert.rejects(
      updateSafely(file, () => '{"a":1}\n', { heldOpen: { ...held.options, holder: 'Cursor' } }),
      (error: unknown) => error instanceof CliError && error.hint === 'close Cursor and run the command again',
    );
    const later = heldFile('none', 0);
    await updateSafely(file, () => '{"a":1}\n', { heldOpen: later.options });
    assert.equal(await readFile(file, 'utf8'), '{"a":1}\n');
  });

  it('elsewhere EACCES means permissions: no wait, no holder named', async () => {
    const file = await configFile('posix', 'old\n');
    const held = heldFile(file, 1, 'EACCES');
    await assert.rejects(
      writeSafely(await readSnapshot(file), 'new\n', { heldOpen: { ...held.options, platform: 'linux' } }),
      /cannot write .*: permission denied; it was not changed/,
    );
    assert.deepEqual(held.pauses, []);
  });

  it('for real where the system refuses it (Windows, Wine): a file open elsewhere is waited for, then written', async (t) => {
    if (!(await renameOverOpenFileRefused())) {
      t.skip('this system lets a rename replace a file that is open (Linux, macOS; a Windows with POSIX renames)');
      return;
    }
    const file = await configFile('real', 'old\n');
    const held = await open(file, 'r');
    const pauses: number[] = [];
    const written = writeSafely(await readSnapshot(file), 'new\n', {
      backup: false,
      heldOpen: {
        pause: async (ms) => {
          pauses.push(ms);
          if (pauses.length === 2) await held.close();
        },
      },
    });
    await written;
    assert.equal(await readFile(file, 'utf8'), 'new\n');
    assert.deepEqual(pauses, [50, 100], 'refused while open, written at the try after the close');

    const still = await open(file, 'r');
    try {
      await assert.rejects(
        writeSafely(await readSnapshot(file), 'newer\n', {
          heldOpen: { holder: 'Claude Desktop', pause: async () => {} },
        }),
        (error: unknown) =>
          error instanceof CliError && error.hint === 'close Claude Desktop and run the command again',
      );
    } finally {
      await still.close();
    }
    assert.equal(await readFile(file, 'utf8'), 'new\n');
  });
});

describe('mcp install into a file held open (for real where the system refuses it)', () => {
  it('exit 7 naming the client to close, after ~3 s; the file is unchanged', async (t) => {
    if (!(await renameOverOpenFileRefused())) {
      t.skip('this system lets a rename replace a file that is open (Linux, macOS; a Windows with POSIX renames)');
      return;
    }
    const home = await tempDir('svcctl-held-home-');
    const env = { SERVICE_EMAIL: 'ann@acme.example', SERVICE_PASSWORD: 'held-Secret-1' };
    const install = (name: string) =>
      runCli(
        ['mcp', 'install', '--client', 'claude-desktop', '--name', name, '--base-url', 'https://acme.example/api'],
        {
          home,
          env,
        },
      );
    const first = await install('service');
    assert.equal(first.code, 0, first.stderr);
    const file = /created (.+claude_desktop_config\.json) with 'service'/.exec(first.stderr)?.[1];
    assert.ok(file, first.stderr);
    const before = await readFile(file, 'utf8');
    const held = await open(file, 'r');
    try {
      const second = await install('other');
      assert.equal(second.code, 7, second.stderr);
      assert.match(second.stderr, /another program has it open/);
      assert.match(second.stderr, /close Claude Desktop and run the command again/);
    } finally {
      await held.close();
    }
    assert.equal(await readFile(file, 'utf8'), before);
  });
});

/** Whether this system refuses to rename over a file that another handle has open. */
async function renameOverOpenFileRefused(): Promise<boolean> {
  const probe = join(dir, 'probe');
  await writeFile(probe, 'a');
  await writeFile(`${probe}.new`, 'b');
  const handle = await open(probe, 'r');
  try {
    await rename(`${probe}.new`, probe);
    return false;
  } catch (error) {
    if (isHeldOpenError(error)) return true;
    throw error;
  } finally {
    await handle.close();
  }
}
