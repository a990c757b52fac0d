import assert from 'node:assert/strict';
import { chmod, lstat, mkdir, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CliError } from '../src/core/errors.js';
import { readSnapshot, writeSafely } from '../src/fs/safe-write.js';
import { unifiedDiff } from '../src/formats/unified-diff.js';
import { tempDir } from './helpers/temp-dirs.js';

let dir: string;
before(async () => {
  dir = await tempDir('svcctl-safe-write-');
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const modeOf = async (path: string): Promise<number> => (await stat(path)).mode & 0o777;
// Windows keeps no mode bits (Node's stat reports 0666 and chmod sets only read-only): there the modes go unchecked.
const MODES = process.platform !== 'win32';

describe('writeSafely', () => {
  it('creates missing folders and the file', async () => {
    const file = join(dir, 'a', 'b', 'mcp.json');
    const snapshot = await readSnapshot(file);
    assert.equal(snapshot.exists, false);
    const result = await writeSafely(snapshot, '{}\n');
    assert.equal(await readFile(file, 'utf8'), '{}\n');
    assert.equal(result.backupPath, undefined);
  });

  it('keeps <file>.bak equal to the old file and keeps a 0600 mode (the backup is 0600 too)', async () => {
    const file = join(dir, 'secret.json');
    await writeFile(file, 'old\n');
    await chmod(file, 0o600);
    const result = await writeSafely(await readSnapshot(file), 'new\n');
    assert.equal(await readFile(file, 'utf8'), 'new\n');
    assert.equal(result.backupPath, `${file}.bak`);
    assert.equal(await readFile(`${file}.bak`, 'utf8'), 'old\n');
    if (MODES) assert.equal(await modeOf(file), 0o600);
    if (MODES) assert.equal(await modeOf(`${file}.bak`), 0o600);
  });

  it('keeps a 0644 mode, or tightens it to 0600 when asked (literal secrets); no backup with backup: false', async () => {
    const file = join(dir, 'plain.json');
    await writeFile(file, 'old\n');
    await chmod(file, 0o644);
    await writeSafely(await readSnapshot(file), 'new\n', { backup: false });
    if (MODES) assert.equal(await modeOf(file), 0o644);
    await assert.rejects(stat(`${file}.bak`), { code: 'ENOENT' });
    await writeSafely(await readSnapshot(file), 'newer\n', { backup: false, mode: 0o600 });
    if (MODES) assert.equal(await modeOf(file), 0o600);
  });

  it('writes nothing when the file changed between the read and the rename (exit 7), and leaves no temp file', async () => {
    const sub = join(dir, 'race');
    await mkdir(sub);
    const file = join(sub, 'claude.json');
    await writeFile(file, '{"a":1}\n');
    await writeFile(`${file}.bak`, 'an older backup\n');
    const snapshot = await readSnapshot(file);
    const attempt = writeSafely(snapshot, '{"ours":true}\n', {
      beforeRename: async () => {
        await writeFile(file, '{"a":1,"theirs":true}\n');
      },
    });
    await assert.rejects(attempt, (error: unknown) => {
      assert.ok(error instanceof CliError);
      assert.equal(error.exitCode, 7);
      assert.match(error.message, /changed on disk while svcctl was working; nothing was written/);
      return true;
    });
    assert.equal(await readFile(file, 'utf8'), '{"a":1,"theirs":true}\n');
    assert.equal(
      await readFile(`${file}.bak`, 'utf8'),
      'an older backup\n',
      'the older backup is kept: nothing was written',
    );
    assert.deepEqual(
      (await readdir(sub)).sort(),
      ['claude.json', 'claude.json.bak'],
      'no temp file of the file or of its backup',
    );
  });

  it('a folder where the backup goes: exit 7 naming it, before anything is written', async () => {
    const sub = join(dir, 'bak-folder');
    await mkdir(join(sub, 'mcp.json.bak'), { recursive: true });
    const file = join(sub, 'mcp.json');
    await writeFile(file, 'old\n');
    await assert.rejects(writeSafely(await readSnapshot(file), 'new\n'), (error: unknown) => {
      assert.ok(error instanceof CliError);
      assert.equal(error.exitCode, 7);
      assert.match(error.message, /cannot write the backup .*mcp\.json\.bak: .*; nothing was written/);
      return true;
    });
    assert.equal(await readFile(file, 'utf8'), 'old\n');
    assert.deepEqual((await readdir(sub)).sort(), ['mcp.json', 'mcp.json.bak']);
  });

  it('refuses when a file appeared where there was none', async () => {
    const file = join(dir, 'appeared.json');
    const snapshot = await readSnapshot(file);
    await writeFile(file, 'someone else\n');
    await assert.rejects(writeSafely(snapshot, 'ours\n'), /changed on disk/);
    assert.equal(await readFile(file, 'utf8'), 'someone else\n');
  });

  it('follows a symlinked config (dotfiles) instead of replacing the link', async (t) => {
    const real = join(dir, 'dotfiles-settings.json');
    const link = join(dir, 'linked-settings.json');
    await writeFile(real, 'old\n');
    await symlink(real, link);
    if ((await lstat(link).catch(() => undefined)) === undefined) {
      t.skip('symlink() reported success and made no link (Wine 8.0 makes none)');
      return;
    }
    await writeSafely(await readSnapshot(link), 'new\n', { backup: false });
    assert.equal(await readFile(real, 'utf8'), 'new\n');
    assert.ok((await lstat(link)).isSymbolicLink());
  });
});

describe('unifiedDiff', () => {
  it('shows the change and hides secret values', () => {
    const before = '{\n  "other": {"env": {"API_TOKEN": "tok-1"}},\n  "a": 1\n}\n';
    const after =
      '{\n  "other": {"env": {"API_TOKEN": "tok-1"}},\n  "a": 1,\n  "SERVICE_PASSWORD": "hunter2",\n  "email": "x"\n}\n';
    const diff = unifiedDiff('/tmp/f.json', before, after, ['hunter2']);
    assert.match(diff, /^--- \/tmp\/f\.json\tcurrent\n\+\+\+ \/tmp\/f\.json\tafter svcctl\n@@ /);
    assert.match(diff, /\n\+ {2}"a": 1,\n/);
    assert.match(diff, /\n\+ {2}"SERVICE_PASSWORD": "\*\*\*",\n/);
    assert.ok(!diff.includes('hunter2'));
  });

  it('a TOML line such as [ "x" ] inside a multi-line array is not taken for a table header', () => {
    // Read as a header, the line would put api_token in an env_http_headers table, where values are variable names.
    const before =
      '[mcp_servers.other]\nargs = [\n  [ "a" ],\n  [ "env_http_headers" ]\n]\napi_token = "literal_secret_value"\n';
    const after = `${before}\n[mcp_servers.service]\nurl = "https://x.example/mcp"\n`;
    const diff = unifiedDiff('/tmp/config.toml', before, after);
    assert.match(diff, /^ api_token = "\*\*\*"$/m);
    assert.ok(!diff.includes('literal_secret_value'));
    const named = unifiedDiff(
      '/tmp/config.toml',
      '[mcp_servers.other.env_http_headers]\nX-Token = "OTHER_TOKEN"\n',
      '[mcp_servers.other.env_http_headers]\nX-Token = "OTHER_TOKEN"\n[a]\n',
    );
    assert.match(named, /^ X-Token = "OTHER_TOKEN"$/m, 'a real env_http_headers table still shows its variable names');
  });
});
