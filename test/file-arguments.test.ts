/**
 * Every file argument of every command, given a path that is missing, a
 * folder, an empty file, or unreadable: a named error with the contract's exit
 * code (or the documented behaviour for the cases that are not mistakes),
 * never exit 1 ("internal error"). Unreadable is a path through a file
 * (`plain/x`, ENOTDIR), which works as root too; as another user a chmod 000
 * file is tried as well.
 */
import assert from 'node:assert/strict';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

type Case = 'missing' | 'folder' | 'empty' | 'unreadable';
const CASES: Case[] = ['missing', 'folder', 'empty', 'unreadable'];
const SIG = `sha256=${'0'.repeat(64)}`;
const ENV = {
  SERVICE_BASE_URL: 'http://127.0.0.1:9/api',
  SERVICE_INGEST_TOKEN: 'ingest-token-1234',
  SERVICE_HMAC_SECRET: 'hmac-secret-1234',
  SERVICE_EMAIL: 'me@example.com',
  SERVICE_PASSWORD: 'pw-from-env-123',
};

/** The command with `@` for the path; the exit code per case (undefined: that case is not a mistake for it, not run). */
const ROWS: Array<{ args: string; codes: Partial<Record<Case, number>>; says?: RegExp }> = [
  { args: 'event send @', codes: { missing: 2, folder: 2, empty: 3, unreadable: 2 } },
  { args: 'event send --ndjson @', codes: { missing: 2, folder: 2, empty: 0, unreadable: 2 } },
  {
    args: 'event send --title t --dry-run --payload-file @',
    codes: { missing: 2, folder: 2, empty: 2, unreadable: 2 },
  },
  { args: 'event send --title t --dry-run --token-file @', codes: { missing: 2, folder: 2, empty: 2, unreadable: 2 } },
  {
    args: 'event send --title t --dry-run --hmac-secret-file @',
    codes: { missing: 2, folder: 2, empty: 2, unreadable: 2 },
  },
  { args: 'event sign @', codes: { missing: 2, folder: 2, empty: 0, unreadable: 2 } },
  { args: `event verify @ --signature ${SIG}`, codes: { missing: 2, folder: 2, empty: 8, unreadable: 2 } },
  { args: 'login --password-file @', codes: { missing: 2, folder: 2, empty: 2, unreadable: 2 } },
  { args: 'token --refresh --password-file @', codes: { missing: 2, folder: 2, empty: 2, unreadable: 2 } },
  {
    args: 'mcp install --client cursor --mode remote --secrets literal --password-file @',
    codes: { missing: 2, folder: 2, empty: 2, unreadable: 2 },
  },
  {
    args: 'mcp install --client cursor --mode remote --auth bearer --token static --secrets literal --token-file @',
    codes: { missing: 2, folder: 2, empty: 2, unreadable: 2 },
  },
  {
    args: 'mcp install --client cursor --mode remote --auth bearer --token static --token-file @',
    codes: { missing: 2, folder: 2, empty: 2, unreadable: 2 },
    says: /--token-file is not read with --secrets ref/,
  },
  {
    args: 'mcp install --client cursor --mode remote --scope project --project-dir @',
    codes: { missing: 2, empty: 2, unreadable: 2 },
  },
  { args: 'mcp list --project-dir @', codes: { missing: 2, empty: 2, unreadable: 2 } },
  {
    args: 'mcp install --config @ --format mcpServers --mode remote',
    codes: { missing: 0, folder: 7, empty: 0, unreadable: 7 },
  },
  { args: 'mcp doctor --config @', codes: { folder: 7, unreadable: 7 } },
  { args: 'dev --port 0 --events-file @', codes: { folder: 2, unreadable: 2 } },
  { args: 'event send --ndjson - --failed-out @', codes: { folder: 2, unreadable: 2 } },
];

async function pathFor(dir: string, kind: Case): Promise<string> {
  switch (kind) {
    case 'missing':
      return join(dir, 'nope.txt');
    case 'folder':
      await mkdir(join(dir, 'a-folder'));
      return join(dir, 'a-folder');
    case 'empty':
      await writeFile(join(dir, 'empty.txt'), '', { mode: 0o600 });
      return join(dir, 'empty.txt');
    case 'unreadable':
      await writeFile(join(dir, 'plain'), 'x');
      return join(dir, 'plain', 'x');
  }
}

describe('file arguments: missing, folder, empty, unreadable', () => {
  for (const row of ROWS) {
    for (const kind of CASES) {
      const expected = row.codes[kind];
      if (expected === undefined) continue;
      it(`${row.args.replace('@', `<${kind}>`)} → exit ${expected}`, async () => {
        const dir = await tempDir('svcctl-fileargs-');
        const path = await pathFor(dir, kind);
        const result = await runCli(row.args.replace('@', path).split(' '), {
          home: dir,
          env: ENV,
          input: '',
          timeoutMs: 15_000,
        });
        assert.equal(result.code, expected, `${result.stderr}`);
        assert.doesNotMatch(result.stderr, /internal error|this is a bug|\n\s+at /);
        if (expected !== 0 && expected !== 8 && !row.says) {
          assert.match(result.stderr, /^error: /m);
          const named = result.stderr.includes(path) || result.stderr.includes(path.split('/').slice(-1)[0]!);
          assert.ok(named, `the error names the path: ${result.stderr}`);
        }
        if (row.says && expected !== 0) assert.match(result.stderr, row.says);
      });
    }
  }

  it('a file without read permission (as a user other than root)', {
    skip: process.getuid?.() === 0 ? 'root reads every file' : false,
  }, async () => {
    const dir = await tempDir('svcctl-fileargs-');
    const path = join(dir, 'secret.txt');
    await writeFile(path, 'token');
    await chmod(path, 0o000);
    for (const args of [
      ['event', 'send', path],
      ['event', 'send', '--ndjson', path],
      ['event', 'send', '--title', 't', '--dry-run', '--token-file', path],
    ]) {
      const result = await runCli(args, { home: dir, env: ENV });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /permission/);
    }
  });
});
