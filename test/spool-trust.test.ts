/**
 * A spool that is not the user's alone is refused whole (exit 7): a link at
 * the spool folder, at rejected/ or .inflight/ or at a spooled name, a folder
 * or a file of another user, a folder others can write. Each case runs
 * `event flush` against a real recording server with a file that would be
 * sent, and checks that nothing reached the server and that every file and
 * link in the spool and where its links point (names, kinds, bytes, owners)
 * is as it was.
 */
import assert from 'node:assert/strict';
import { chmod, chown, lstat, mkdir, readdir, readFile, readlink, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CliError } from '../src/core/errors.js';
import { SpoolFolder } from '../src/events/spool-trust.js';
import { runCli } from './helpers/cli.js';
import { startRecordingServer } from './helpers/recording-server.js';
import { spoolFolderFor } from './helpers/spool-layout.js';
import { tempDir } from './helpers/temp-dirs.js';

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
const notRoot = asRoot ? false : 'needs root, to give a file to another user (chown nobody)';
const ID = '6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f';
const DEAD_PID = 2 ** 22 + 7; // above Linux's pid_max: never a running process

const eventBytes = (id: string, title: string): string =>
  JSON.stringify({ event: { id, title, created_at: '2026-11-25T00:00:00.000Z', investigate: false } });

/** Every entry under `roots`, links not followed: kind, owner, mode, link target or bytes. */
async function snapshot(...roots: string[]): Promise<Record<string, string>> {
  const seen: Record<string, string> = {};
  const walk = async (path: string): Promise<void> => {
    const info = await lstat(path).catch(() => undefined);
    if (!info) return;
    const head = `uid ${info.uid} mode ${(info.mode & 0o7777).toString(8)}`;
    if (info.isSymbolicLink()) seen[path] = `link -> ${await readlink(path)}`;
    else if (info.isDirectory()) {
      seen[path] = `folder ${head}`;
      for (const name of await readdir(path)) await walk(join(path, name));
    } else seen[path] = `file ${head}: ${await readFile(path, 'utf8')}`;
  };
  for (const root of roots) await walk(root);
  return seen;
}

interface Layout {
  home: string;
  spool: string;
  /** A folder outside the spool that a planted link points into. */
  outside: string;
}

async function layout(): Promise<Layout> {
  const home = await tempDir('svcctl-spool-trust-');
  const outside = await tempDir('svcctl-spool-outside-');
  const spool = join(home, 'spool');
  return { home, spool, outside };
}

async function ownSpool(spool: string): Promise<void> {
  await mkdir(spool, { recursive: true });
  await chmod(spool, 0o700);
}

/**
 * Runs `event flush` on a spool that must be refused: exit 7 naming `reason`, nothing sent, nothing changed.
 * `plant` gets the folder of the events spooled for the server's base URL, the one this flush would send.
 */
async function assertRefused(l: Layout, reason: RegExp, plant?: (folder: string) => Promise<void>): Promise<string> {
  const server = await startRecordingServer(() => ({ status: 400, body: '{"error":"no"}' }));
  try {
    await plant?.(spoolFolderFor(l.spool, server.baseUrl));
    const roots = [l.spool.replace(/\/$/, ''), l.outside];
    const before = await snapshot(...roots);
    const result = await runCli(['event', 'flush', '--spool', l.spool], {
      home: l.home,
      env: {
        SERVICE_BASE_URL: server.baseUrl,
        SERVICE_INGEST_TOKEN: 'ingest-token-trust-1',
        SERVICE_HMAC_SECRET: 'hmac-trust-1',
      },
    });
    assert.equal(result.code, 7, result.stderr);
    assert.match(result.stderr, reason);
    assert.match(result.stderr, /left the spool as it was/);
    assert.doesNotMatch(result.stderr, /internal error|at .*\.js:\d+/);
    assert.equal(server.requests.length, 0, 'nothing was sent');
    assert.deepEqual(await snapshot(...roots), before, 'nothing was moved, changed or deleted');
    return result.stderr;
  } finally {
    await server.close();
  }
}

describe('event flush refuses a spool that is not yours alone (exit 7, nothing sent or moved)', () => {
  it('the spool folder is a link (to a folder of planted events)', async () => {
    const l = await layout();
    await chmod(l.outside, 0o700);
    await writeFile(join(l.outside, `${ID}.json`), eventBytes(ID, 'planted'));
    await symlink(l.outside, l.spool);
    const stderr = await assertRefused(l, /spool folder .*spool is a symbolic link \(to .*svcctl-spool-outside-/);
    assert.match(stderr, /rm '.*spool'/);
  });

  it('the spool folder given with a trailing slash is still the link, not its target', async () => {
    const l = await layout();
    await chmod(l.outside, 0o700);
    await writeFile(join(l.outside, `${ID}.json`), eventBytes(ID, 'planted'));
    await symlink(l.outside, l.spool);
    l.spool = `${l.spool}/`;
    await assertRefused(l, /is a symbolic link/);
  });

  it('rejected/ is a link (a 400 would move the event over a file there)', async () => {
    const l = await layout();
    await ownSpool(l.spool);
    await writeFile(join(l.spool, `${ID}.json`), eventBytes(ID, 'rejected soon'));
    await writeFile(join(l.outside, `${ID}.json`), 'a file of the same name outside\n');
    await symlink(l.outside, join(l.spool, 'rejected'));
    await assertRefused(l, /spool folder .*spool\/rejected is a symbolic link/);
  });

  it('.inflight/ is a link (a stale claim there would be pulled into the spool and sent)', async () => {
    const l = await layout();
    await ownSpool(l.spool);
    await writeFile(join(l.spool, `${ID}.json`), eventBytes(ID, 'waiting'));
    await writeFile(
      join(l.outside, `outside.json.${DEAD_PID}`),
      eventBytes('7a7a7a7a-0000-4000-8000-000000000001', 'outside'),
    );
    await symlink(l.outside, join(l.spool, '.inflight'));
    await assertRefused(l, /spool folder .*spool\/\.inflight is a symbolic link/);
  });

  it('a spooled name is a link to a file outside', async () => {
    const l = await layout();
    await ownSpool(l.spool);
    await writeFile(join(l.spool, `${ID}.json`), eventBytes(ID, 'mine'));
    await writeFile(
      join(l.outside, 'secret.json'),
      eventBytes('7a7a7a7a-0000-4000-8000-000000000002', 'not yours to send'),
    );
    await symlink(join(l.outside, 'secret.json'), join(l.spool, 'aaaa-linked.json'));
    await assertRefused(l, /aaaa-linked\.json is a symbolic link \(to /);
  });

  it('the spool folder can be written by the group', async () => {
    const l = await layout();
    await ownSpool(l.spool);
    await chmod(l.spool, 0o770);
    await writeFile(join(l.spool, `${ID}.json`), eventBytes(ID, 'planted by the group'));
    const stderr = await assertRefused(l, /can be written by other users \(mode 0770\)/);
    assert.match(stderr, /chmod 700 '.*spool'/);
  });

  it('rejected/ can be written by others', async () => {
    const l = await layout();
    await ownSpool(l.spool);
    await mkdir(join(l.spool, 'rejected'));
    await chmod(join(l.spool, 'rejected'), 0o777);
    await writeFile(join(l.spool, `${ID}.json`), eventBytes(ID, 'waiting'));
    await assertRefused(l, /spool\/rejected can be written by other users \(mode 0777\)/);
  });

  it('the spool folder belongs to another user (root included)', { skip: notRoot }, async () => {
    const l = await layout();
    await ownSpool(l.spool);
    await writeFile(join(l.spool, `${ID}.json`), eventBytes(ID, "nobody's event"));
    await chown(join(l.spool, `${ID}.json`), NOBODY, NOBODY);
    await chown(l.spool, NOBODY, NOBODY);
    const stderr = await assertRefused(
      l,
      new RegExp(`spool folder .*spool belongs to another user \\(uid ${NOBODY}; you are uid 0\\)`),
    );
    assert.match(stderr, /chown 0 '.*spool'/);
  });

  it('a spooled file belongs to another user: none is sent, not even the files of yours', {
    skip: notRoot,
  }, async () => {
    const l = await layout();
    await ownSpool(l.spool);
    await writeFile(join(l.spool, `${ID}.json`), eventBytes(ID, 'mine'));
    await writeFile(join(l.spool, 'bbbb.json'), eventBytes('7a7a7a7a-0000-4000-8000-000000000003', "nobody's"));
    await chown(join(l.spool, 'bbbb.json'), NOBODY, NOBODY);
    await assertRefused(l, new RegExp(`bbbb\\.json belongs to another user \\(uid ${NOBODY}`));
  });

  it('the folder of the base URL flushed is a link (to a folder of planted events)', async () => {
    const l = await layout();
    await ownSpool(l.spool);
    await chmod(l.outside, 0o700);
    await writeFile(join(l.outside, `${ID}.json`), eventBytes(ID, 'planted'));
    await assertRefused(l, /spool folder .*spool\/base-[0-9a-f]{16} is a symbolic link \(to /, (folder) =>
      symlink(l.outside, folder),
    );
  });

  it("another base URL's folder can be written by the group (an event of yours waits in your own)", async () => {
    const l = await layout();
    await ownSpool(l.spool);
    const other = join(l.spool, 'base-0123456789abcdef');
    await mkdir(other, { mode: 0o700 });
    await chmod(other, 0o770);
    await assertRefused(
      l,
      /spool\/base-0123456789abcdef can be written by other users \(mode 0770\)/,
      async (folder) => {
        await mkdir(folder, { mode: 0o700 });
        await writeFile(join(folder, `${ID}.json`), eventBytes(ID, 'mine'));
      },
    );
  });

  it("a base-url file naming another folder's base URL is a link", async () => {
    const l = await layout();
    await ownSpool(l.spool);
    const other = join(l.spool, 'base-0123456789abcdef');
    await mkdir(other, { mode: 0o700 });
    await writeFile(join(other, `${ID}.json`), eventBytes(ID, 'for elsewhere'));
    await writeFile(join(l.outside, 'url'), 'http://127.0.0.1:9/api\n');
    await symlink(join(l.outside, 'url'), join(other, 'base-url'));
    await assertRefused(l, /base-0123456789abcdef\/base-url is a symbolic link/);
  });

  it('a stale claim in .inflight/ belongs to another user', { skip: notRoot }, async () => {
    const l = await layout();
    await ownSpool(l.spool);
    await mkdir(join(l.spool, '.inflight'), { mode: 0o700 });
    const claim = join(l.spool, '.inflight', `${ID}.json.${DEAD_PID}`);
    await writeFile(claim, eventBytes(ID, "nobody's claim"));
    await chown(claim, NOBODY, NOBODY);
    await assertRefused(l, /\.inflight\/.*\.json\.\d+ belongs to another user/);
  });
});

describe('event send --spool refuses a spool that is not yours alone', () => {
  const sendDown = async (l: Layout): Promise<{ code: number | null; stderr: string }> =>
    runCli(['event', 'send', '--title', 'disk full', '--id', ID, '--retries', '0', '--spool', l.spool], {
      home: l.home,
      env: { SERVICE_BASE_URL: 'http://127.0.0.1:9/api', SERVICE_INGEST_TOKEN: 'ingest-token-trust-1' },
    });

  it('a link at the spool folder: exit 7, nothing written where it points', async () => {
    const l = await layout();
    await chmod(l.outside, 0o700);
    await symlink(l.outside, l.spool);
    const before = await snapshot(l.spool, l.outside);
    const result = await sendDown(l);
    assert.equal(result.code, 7, result.stderr);
    assert.match(result.stderr, /spool folder .* is a symbolic link/);
    assert.deepEqual(await snapshot(l.spool, l.outside), before);
  });

  it('a spool folder of another user: exit 7, nothing written there', { skip: notRoot }, async () => {
    const l = await layout();
    await ownSpool(l.spool);
    await chown(l.spool, NOBODY, NOBODY);
    const before = await snapshot(l.spool);
    const result = await sendDown(l);
    assert.equal(result.code, 7, result.stderr);
    assert.match(result.stderr, /belongs to another user/);
    assert.deepEqual(await snapshot(l.spool), before);
  });
});

describe('a spool that is yours alone still works', () => {
  it('created by svcctl: 0700 folders, a 400 moves the event into rejected/, the next flush has nothing to send', async () => {
    const l = await layout();
    const server = await startRecordingServer((_, index) =>
      index === 0 ? { status: 503, body: 'busy' } : { status: 400, body: '{"error":"no"}' },
    );
    try {
      const env = { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 'ingest-token-trust-1' };
      const sent = await runCli(['event', 'send', '--title', 't', '--id', ID, '--retries', '0', '--spool', l.spool], {
        home: l.home,
        env,
      });
      assert.equal(sent.code, 0, sent.stderr);
      const flushed = await runCli(['event', 'flush', '--spool', l.spool], { home: l.home, env });
      assert.equal(flushed.code, 0, flushed.stderr);
      assert.equal(server.requests.length, 2, 'the 503 of the send, then the 400 of the flush');
      const kept = spoolFolderFor(l.spool, server.baseUrl);
      for (const folder of [l.spool, kept, join(kept, 'rejected'), join(kept, '.inflight')]) {
        const info = await lstat(folder);
        assert.ok(info.isDirectory() && (info.mode & 0o777) === 0o700, `${folder} is a 0700 folder`);
        assert.equal(info.uid, process.getuid?.());
      }
      assert.deepEqual((await readdir(join(kept, 'rejected'))).sort(), [`${ID}.answer.txt`, `${ID}.json`]);
      const again = await runCli(['event', 'flush', '--spool', l.spool], { home: l.home, env });
      assert.equal(again.code, 0, again.stderr);
      assert.equal(server.requests.length, 2);
    } finally {
      await server.close();
    }
  });

  it('a link above the spool folder (the user chose where it lives) is followed', async () => {
    const l = await layout();
    await ownSpool(join(l.outside, 'spool'));
    await writeFile(join(l.outside, 'spool', `${ID}.json`), eventBytes(ID, 'mine'));
    await symlink(l.outside, join(l.home, 'state'));
    const server = await startRecordingServer();
    try {
      const result = await runCli(
        ['event', 'flush', '--spool', join(l.home, 'state', 'spool'), '--legacy-to-current'],
        {
          home: l.home,
          env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 'ingest-token-trust-1' },
        },
      );
      assert.equal(result.code, 0, result.stderr);
      assert.equal(server.requests.length, 1);
      assert.deepEqual(await readdir(join(l.outside, 'spool')), ['.inflight']);
    } finally {
      await server.close();
    }
  });
});

describe('SpoolFolder: what changes between a check and its use is caught', () => {
  const refused = (pattern: RegExp) => (error: unknown) =>
    error instanceof CliError && error.exitCode === 7 && pattern.test(error.message);

  it('a spool folder swapped for another after its first check is refused at the next', async () => {
    const l = await layout();
    await ownSpool(l.spool);
    const spool = new SpoolFolder(l.spool, process.getuid?.());
    assert.equal(await spool.check(), true);
    await rename(l.spool, join(l.home, 'moved'));
    await ownSpool(l.spool);
    await assert.rejects(spool.check(), refused(/was replaced while svcctl was using it/));
  });

  it('a file replaced after it was listed is not read', async () => {
    const l = await layout();
    await ownSpool(l.spool);
    const path = join(l.spool, `${ID}.json`);
    await writeFile(path, eventBytes(ID, 'listed'));
    const spool = new SpoolFolder(l.spool, process.getuid?.());
    const listed = await spool.checkFiles([path]);
    await writeFile(join(l.spool, 'other'), eventBytes(ID, 'swapped in'));
    await rename(join(l.spool, 'other'), path);
    await assert.rejects(spool.read(path, path, listed.get(path)), refused(/was replaced after svcctl listed it/));
    assert.deepEqual((await spool.read(path, path, undefined)).toString('utf8'), eventBytes(ID, 'swapped in'));
  });

  it('a link put at a listed name is not followed when the file is opened', async () => {
    const l = await layout();
    await ownSpool(l.spool);
    const path = join(l.spool, `${ID}.json`);
    await writeFile(join(l.outside, 'elsewhere.json'), eventBytes(ID, 'outside'));
    await symlink(join(l.outside, 'elsewhere.json'), path);
    const spool = new SpoolFolder(l.spool, process.getuid?.());
    await assert.rejects(spool.read(path, path, undefined), refused(/is a symbolic link/));
  });

  it('the owner is the uid given, not the one of the process: a folder of this user is refused for another', async () => {
    const l = await layout();
    await ownSpool(l.spool);
    const other = (process.getuid?.() ?? 0) + 4242;
    await assert.rejects(
      new SpoolFolder(l.spool, other).check(),
      refused(new RegExp(`belongs to another user \\(uid ${process.getuid?.() ?? 0}; you are uid ${other}\\)`)),
    );
  });
});
