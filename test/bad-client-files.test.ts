/**
 * A client file svcctl cannot read is that client's problem, never svcctl's crash (issue 47, "Bad files never hang
 * or crash svcctl"): a YAML alias bomb in Goose's config.yaml, a 1 GB mcp.json (a sparse file: no disk used) and a
 * FIFO are named in a warning by `mcp list`, `status` and `mcp doctor --all`, which go on with the other clients, and
 * are exit 7 for `mcp install` and `mcp get`. No "internal error", no file read whole.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { placeFile, runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

const BASE_URL = 'https://acme.example.com/api';

// Nine references to the level below at each of 10 levels: 9^10 strings once expanded (the "billion laughs").
function aliasBomb(): string {
  const lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
  for (let level = 1; level <= 10; level += 1)
    lines.push(`a${level}: &a${level} [${Array.from({ length: 9 }, () => `*a${level - 1}`).join(', ')}]`);
  return `${lines.join('\n')}\nextensions: {}\n`;
}

interface BadFile {
  name: string;
  client: string;
  path: string;
  place(home: string): Promise<void>;
  reason: RegExp;
}

const BAD_FILES: BadFile[] = [
  {
    name: 'a YAML alias bomb in Goose config.yaml',
    client: 'goose',
    path: '.config/goose/config.yaml',
    place: async (home) => void (await placeFile(home, '.config/goose/config.yaml', aliasBomb())),
    reason: /alias/i,
  },
  {
    name: 'a 1 GB ~/.cursor/mcp.json',
    client: 'cursor',
    path: '.cursor/mcp.json',
    place: async (home) => {
      const file = await placeFile(home, '.cursor/mcp.json', '');
      await truncate(file, 1024 ** 3);
    },
    reason: /is 1\.0 GiB, over the limit of 16 MiB/,
  },
  {
    name: 'a FIFO as ~/.cursor/mcp.json',
    client: 'cursor',
    path: '.cursor/mcp.json',
    place: async (home) => {
      await placeFile(home, '.cursor/keep', '');
      execFileSync('mkfifo', [join(home, '.cursor', 'mcp.json')]);
    },
    reason: /is a named pipe \(FIFO\), not a regular file/,
  },
];

/** A home with the bad file and a good entry in another client (VS Code), which must still be listed. */
async function homeWithFile(bad: BadFile): Promise<string> {
  const home = await tempDir('svcctl-bad-client-');
  // No other program writes VS Code's file here: install reads its write back without waiting for one.
  const pause = async (): Promise<void> => undefined;
  const good = await runCli(['mcp', 'install', '--client', 'vscode', '--base-url', BASE_URL], { home, pause });
  assert.equal(good.code, 0, good.stderr);
  await bad.place(home);
  return home;
}

function assertNamed(stderr: string, home: string, bad: BadFile): void {
  assert.ok(stderr.includes(join(home, bad.path)), stderr);
  assert.match(stderr, bad.reason);
  assert.doesNotMatch(stderr, /internal error|this is a bug/);
}

describe('a client file svcctl cannot read', () => {
  for (const bad of BAD_FILES) {
    // One home per bad file, set up once: none of the runs below writes to it (install and get fail before writing).
    let shared: Promise<string> | undefined;
    const homeWith = (file: BadFile): Promise<string> => {
      shared ??= homeWithFile(file);
      return shared;
    };

    it(`${bad.name}: mcp list and status warn and list the other clients`, async () => {
      const home = await homeWith(bad);
      const list = await runCli(['mcp', 'list'], { home, env: { SERVICE_BASE_URL: BASE_URL } });
      assert.equal(list.code, 0, list.stderr);
      assertNamed(list.stderr, home, bad);
      assert.match(list.stdout, /vscode/);
      const status = await runCli(['status'], { home, env: { SERVICE_BASE_URL: BASE_URL } });
      assert.doesNotMatch(status.stderr, /internal error|this is a bug/);
      assertNamed(status.stderr, home, bad);
    });

    it(`${bad.name}: mcp doctor --all warns and checks the other clients`, async () => {
      const home = await homeWith(bad);
      const doctor = await runCli(['mcp', 'doctor', '--all'], { home, env: { SERVICE_BASE_URL: BASE_URL } });
      assert.notEqual(doctor.code, null, 'doctor ended');
      assertNamed(doctor.stderr, home, bad);
      assert.match(doctor.stdout, /vscode|VS Code/);
    });

    it(`${bad.name}: mcp install and mcp get are exit 7 naming the file`, async () => {
      const home = await homeWith(bad);
      const install = await runCli(['mcp', 'install', '--client', bad.client, '--base-url', BASE_URL], { home });
      assert.equal(install.code, 7, install.stderr);
      assertNamed(install.stderr, home, bad);
      const get = await runCli(['mcp', 'get', '--client', bad.client], { home });
      assert.equal(get.code, 7, get.stderr);
      assertNamed(get.stderr, home, bad);
    });
  }
});
