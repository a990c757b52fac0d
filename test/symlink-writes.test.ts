/**
 * No write of svcctl follows a symbolic link it did not choose to follow. For
 * every path svcctl writes, a link to a file outside the temp HOME is planted
 * there (as a cloned repository or another user of a shared folder could), the
 * command that writes it runs, and the link's target must be untouched with a
 * clear answer: the link replaced by a regular file, or a refusal naming it.
 * Appended files are also refused when they have another name (a hard link)
 * or belong to another user.
 * (Temp files and lock files are created with O_EXCL, which never follows a link;
 * the compile cache's files are also created exclusively in a 0700 folder.)
 */
import assert from 'node:assert/strict';
import { chmod, chown, link, lstat, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { runCli } from './helpers/cli.js';
import { runDevExpectingExit } from './helpers/dev-sandbox.js';
import { startLoginServer, EMAIL, PASSWORD } from './helpers/login-server.js';
import { startRecordingServer } from './helpers/recording-server.js';
import { spoolFolderFor } from './helpers/spool-layout.js';
import { tempDir } from './helpers/temp-dirs.js';

const VICTIM_TEXT = 'precious: the file a link points at\n';
const EVENT_ID = '0b9e2c5e-4a8f-4f1e-9a39-6c2f3d1b7e11';

interface Planted {
  home: string;
  victim: string;
}

/** A temp HOME, and outside it a victim file that a link at `linkPath` (relative to HOME) points at. */
async function plant(linkPath: string, setup?: (home: string) => Promise<void>): Promise<Planted> {
  const home = await tempDir('svcctl-link-home-');
  const outside = await tempDir('svcctl-link-victim-');
  const victim = join(outside, 'victim.txt');
  await writeFile(victim, VICTIM_TEXT);
  await setup?.(home);
  await mkdir(join(home, linkPath, '..'), { recursive: true });
  await symlink(victim, join(home, linkPath));
  return { home, victim };
}

async function assertUntouched(planted: Planted): Promise<void> {
  assert.equal(await readFile(planted.victim, 'utf8'), VICTIM_TEXT, 'the link target was written');
}

const isLink = async (path: string): Promise<boolean> => (await lstat(path)).isSymbolicLink();

test('mcp install: a link at <file>.bak is replaced by the backup, not written through', async () => {
  const old = '{ "mcpServers": { "other": { "command": "other-server" } } }\n';
  const planted = await plant('repo/.cursor/mcp.json.bak', async (home) => {
    await mkdir(join(home, 'repo', '.cursor'), { recursive: true });
    await writeFile(join(home, 'repo', '.cursor', 'mcp.json'), old);
  });
  const result = await runCli(
    [
      'mcp',
      'install',
      '--client',
      'cursor',
      '--scope',
      'project',
      '--project-dir',
      join(planted.home, 'repo'),
      '--mode',
      'remote',
    ],
    {
      home: planted.home,
      env: { SERVICE_BASE_URL: 'http://127.0.0.1:9/api' },
    },
  );
  assert.equal(result.code, 0, result.stderr);
  await assertUntouched(planted);
  const backup = join(planted.home, 'repo', '.cursor', 'mcp.json.bak');
  assert.equal(await isLink(backup), false);
  assert.equal(await readFile(backup, 'utf8'), old);
});

const appendTargets: Array<{
  name: string;
  run: (planted: Planted, link: string) => Promise<{ code: number | null; stderr: string }>;
  flag: string;
}> = [
  {
    name: '--failed-out',
    flag: '--failed-out',
    run: async (planted, link) => {
      const server = await startRecordingServer();
      try {
        return await runCli(['event', 'send', '--ndjson', '-', '--failed-out', link], {
          home: planted.home,
          input: 'not json\n',
          env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 'ingest-token-1234' },
        });
      } finally {
        await server.close();
      }
    },
  },
  {
    name: 'svcctl dev --events-file',
    flag: '--events-file',
    run: (_planted, link) => runDevExpectingExit(['--port', '0', '--events-file', link]),
  },
  {
    name: 'svcctl dev --log-file',
    flag: '--log-file',
    run: (_planted, link) => runDevExpectingExit(['--port', '0', '--log-file', link]),
  },
];

for (const target of appendTargets) {
  test(`${target.name}: a link there is refused (exit 2), its target untouched`, async () => {
    const planted = await plant('out.ndjson');
    const result = await target.run(planted, join(planted.home, 'out.ndjson'));
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, new RegExp(`${target.flag} '.*out\\.ndjson' is a symbolic link`));
    await assertUntouched(planted);
  });
}

for (const target of appendTargets) {
  test(`${target.name}: a hard link there is refused (exit 7), the file it names unchanged`, async () => {
    const planted = await plant('unused-link');
    const out = join(planted.home, 'out.ndjson');
    await link(planted.victim, out);
    const result = await target.run(planted, out);
    assert.equal(result.code, 7, result.stderr);
    assert.match(result.stderr, new RegExp(`${target.flag} '.*out\\.ndjson' has 2 hard links`));
    await assertUntouched(planted);
    assert.equal((await stat(planted.victim)).nlink, 2);
  });

  test(`${target.name}: a file of another user there is refused (exit 7), even for root, and unchanged`, {
    skip: process.getuid?.() === 0 ? false : 'needs root, to give the file to another user',
  }, async () => {
    const planted = await plant('unused-link');
    const out = join(planted.home, 'out.ndjson');
    await writeFile(out, VICTIM_TEXT);
    await chown(out, 65534, 65534);
    const result = await target.run(planted, out);
    assert.equal(result.code, 7, result.stderr);
    assert.match(result.stderr, new RegExp(`${target.flag} '.*out\\.ndjson' belongs to another user \\(uid 65534`));
    assert.equal(await readFile(out, 'utf8'), VICTIM_TEXT);
  });
}

test('login --save: a credentials file that is a link is refused (exit 7), its target untouched', async () => {
  const server = await startLoginServer();
  try {
    const planted = await plant('.config/svcctl/credentials.json');
    const result = await runCli(['login', '--email', EMAIL, '--password-stdin', '--save'], {
      home: planted.home,
      input: `${PASSWORD}\n`,
      env: { SERVICE_BASE_URL: server.baseUrl },
    });
    assert.equal(result.code, 7, result.stderr);
    assert.match(result.stderr, /credentials\.json is a symbolic link/);
    await assertUntouched(planted);
  } finally {
    await server.close();
  }
});

test('event send --spool: a link at the spool file is replaced, not written through', async () => {
  const baseUrl = 'http://127.0.0.1:9/api';
  const folder = basename(spoolFolderFor('spool', baseUrl));
  const planted = await plant(`spool/${folder}/${EVENT_ID}.json`, async (home) => {
    await mkdir(join(home, 'spool', folder), { recursive: true, mode: 0o700 });
    await chmod(join(home, 'spool'), 0o700);
  });
  const spool = join(planted.home, 'spool');
  const result = await runCli(['event', 'send', '--title', 't', '--id', EVENT_ID, '--spool', spool, '--retries', '0'], {
    home: planted.home,
    env: { SERVICE_BASE_URL: baseUrl, SERVICE_INGEST_TOKEN: 'ingest-token-1234' },
  });
  assert.equal(result.code, 0, result.stderr);
  await assertUntouched(planted);
  const spooled = join(spool, folder, `${EVENT_ID}.json`);
  assert.equal(await isLink(spooled), false);
  assert.equal(JSON.parse(await readFile(spooled, 'utf8')).event.id, EVENT_ID);
});

test('event flush: a rejected answer file replaces a link at its name', async () => {
  const server = await startRecordingServer(() => ({
    status: 400,
    headers: { 'content-type': 'application/json' },
    body: '{"error":"bad event"}',
  }));
  try {
    const planted = await plant(`spool/rejected/${EVENT_ID}.answer.txt`, async (home) => {
      await mkdir(join(home, 'spool', 'rejected'), { recursive: true, mode: 0o700 });
      await chmod(join(home, 'spool'), 0o700);
      await chmod(join(home, 'spool', 'rejected'), 0o700);
      await writeFile(
        join(home, 'spool', `${EVENT_ID}.json`),
        JSON.stringify({
          event: { id: EVENT_ID, title: 't', created_at: '2026-11-24T00:00:00.000Z', investigate: false },
        }),
      );
    });
    const result = await runCli(['event', 'flush', '--spool', join(planted.home, 'spool'), '--legacy-to-current'], {
      home: planted.home,
      env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 'ingest-token-1234' },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(server.requests.length, 1);
    assert.equal(JSON.parse(server.requests[0].body.toString('utf8')).event.id, EVENT_ID);
    await assertUntouched(planted);
    const answer = join(planted.home, 'spool', 'rejected', `${EVENT_ID}.answer.txt`);
    assert.equal(await isLink(answer), false);
    assert.match(await readFile(answer, 'utf8'), /bad event/);
  } finally {
    await server.close();
  }
});

test('a spool folder that others can write is refused (exit 7) before anything is sent', async () => {
  const server = await startRecordingServer();
  try {
    const home = await tempDir('svcctl-spool-home-');
    const spool = join(home, 'spool');
    await mkdir(spool);
    await chmod(spool, 0o777);
    await writeFile(join(spool, `${EVENT_ID}.json`), JSON.stringify({ event: { id: EVENT_ID, title: 'planted' } }));
    const env = { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 'ingest-token-1234' };
    const flush = await runCli(['event', 'flush', '--spool', spool], { home, env });
    assert.equal(flush.code, 7, flush.stderr);
    assert.match(flush.stderr, /spool folder .* can be written by other users \(mode 0777\)/);
    assert.match(flush.stderr, /chmod 700/);
    assert.equal(server.requests.length, 0);
  } finally {
    await server.close();
  }
});
