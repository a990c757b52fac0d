/**
 * scripts/package-numbers.mjs, which scripts/check-package.sh runs on what it measured (issue 49, item 10): the
 * package's numbers in README.md and docs/install.md must agree with the measured ones within 5 %, else the package
 * check fails naming each place. Run on docs written here, whose numbers the test knows; and on this clone's docs,
 * whose sentences must be where the script looks.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
// cli-env.js, not cli.js: this file runs no command, and cli.js loads all of svcctl.
import { ROOT } from './helpers/cli-env.js';
import { tempDir } from './helpers/temp-dirs.js';

const SCRIPT = join(ROOT, 'scripts', 'package-numbers.mjs');

/** 600 KiB to download, 5.0 MiB (5,120 KiB) on disk, 150 files, dist/ 2.0 MiB (2,048 KiB). */
async function docsStating(): Promise<string> {
  const root = await tempDir('svcctl-numbers-');
  await mkdir(join(root, 'docs'));
  await writeFile(join(root, 'README.md'), 'an install is 3 packages (600 KiB to download, 5.0 MiB on disk).\n');
  await writeFile(
    join(root, 'docs', 'install.md'),
    "Measured: a 600 KiB tarball, 5.0 MiB on disk once\ninstalled (150 files; svcctl's `dist/` is 2.0 MiB, the rest …\n",
  );
  return root;
}

function check(root: string, numbers: { tarball: number; installed: number; files: number; dist: number }) {
  const args = ['--tarball-bytes', String(numbers.tarball), '--installed-kib', String(numbers.installed)];
  args.push('--files', String(numbers.files), '--dist-kib', String(numbers.dist), '--root', root);
  return spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });
}

const AS_STATED = { tarball: 600 * 1024, installed: 5120, files: 150, dist: 2048 };

describe('the package numbers in the docs', () => {
  it('agree within 5 %: exit 0, and the measured numbers printed in the docs’ words', async () => {
    const root = await docsStating();
    const ran = check(root, { ...AS_STATED, tarball: 620 * 1024, files: 156 });
    assert.equal(ran.status, 0, ran.stderr);
    assert.match(ran.stdout, /^package-numbers: 620 KiB to download, 5\.0 MiB on disk, 156 files, dist\/ 2\.0 MiB$/m);
  });

  it('a tarball, an install or a file count off by more than 5 %: exit 1, each place named with the measured number', async () => {
    const root = await docsStating();
    const ran = check(root, { tarball: 652 * 1024, installed: 5992, files: 103, dist: 2048 });
    assert.equal(ran.status, 1, ran.stdout);
    assert.match(ran.stderr, /README\.md: tarball is 600 there; measured 652 KiB/);
    assert.match(ran.stderr, /README\.md: on disk is 5\.0 there; measured 5\.9 MiB/);
    assert.match(ran.stderr, /docs\/install\.md: files is 150 there; measured 103 files/);
    assert.doesNotMatch(ran.stderr, /dist\//);
  });

  it('a doc without the sentence fails too: the check cannot tell', async () => {
    const root = await docsStating();
    await writeFile(join(root, 'README.md'), 'small, and quick to install.\n');
    const ran = check(root, AS_STATED);
    assert.equal(ran.status, 1);
    assert.match(ran.stderr, /README\.md: the sentence with the package's numbers is not there/);
  });

  it("this clone's README.md and docs/install.md hold the sentences the package check reads", () => {
    const ran = check(ROOT, AS_STATED);
    // It ran to its verdict (0, or 1 for numbers that differ from these made-up ones), and read both files.
    assert.ok(ran.status === 0 || ran.status === 1, `${ran.status} ${ran.stderr}`);
    assert.match(ran.stdout, /^package-numbers: /m);
    assert.doesNotMatch(ran.stderr, /is not there/, ran.stderr);
  });
});
