/**
 * Looking a program up on Windows (doctor's check of what an entry starts, npx's path for a GUI client): Node's
 * Windows folder holds `npx`, npm's shell script, beside `npx.cmd`; a name without an extension is found only with a
 * PATHEXT extension, as the clients' own lookup (cross-spawn's `which`) does. Real files in a temp folder, with
 * Windows paths: it runs under Node for Windows (scripts/test-win32.sh) and on the Windows CI runner.
 */
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { findProgram } from '../src/fs/path-search.js';
import { tempDir } from './helpers/temp-dirs.js';

const PATHEXT = '.COM;.EXE;.BAT;.CMD;.VBS;.VBE;.JS;.JSE;.WSF;.WSH;.MSC';
let dir: string;
before(async () => {
  dir = await tempDir('svcctl-path-search-');
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function folderWith(name: string, files: string[]): Promise<string> {
  const folder = join(dir, name);
  await mkdir(folder);
  for (const file of files)
    await writeFile(join(folder, file), file.endsWith('.cmd') ? '@ECHO off\r\n' : '#!/bin/sh\n');
  return folder;
}

describe('findProgram on Windows', {
  skip: process.platform !== 'win32' && 'needs Windows paths: run under Node for Windows',
}, () => {
  it("npx.cmd, not the shell script `npx` beside it in Node's folder", async () => {
    const nodejs = await folderWith('nodejs', ['npx', 'npx.cmd', 'node.exe']);
    const found = await findProgram('npx', { PATH: nodejs, PATHEXT }, 'win32', dir);
    assert.equal(found?.toLowerCase(), join(nodejs, 'npx.cmd').toLowerCase());
  });

  it('a folder with only the shell script has no npx; a later folder with npx.cmd is used', async () => {
    const bash = await folderWith('git-bash', ['npx']);
    const volta = await folderWith('volta-bin', ['npx.exe']);
    assert.equal(await findProgram('npx', { PATH: bash, PATHEXT }, 'win32', dir), undefined);
    const found = await findProgram('npx', { Path: `${bash};${volta}`, PATHEXT }, 'win32', dir);
    assert.equal(found?.toLowerCase(), join(volta, 'npx.exe').toLowerCase());
  });

  it('a name with its extension is taken as it is, also as a path', async () => {
    const fnm = await folderWith('fnm-node', ['npx.cmd']);
    const found = await findProgram('npx.cmd', { PATH: fnm, PATHEXT }, 'win32', dir);
    assert.equal(found?.toLowerCase(), join(fnm, 'npx.cmd').toLowerCase());
    assert.equal(
      (await findProgram(join(fnm, 'npx'), { PATH: '', PATHEXT }, 'win32', dir))?.toLowerCase(),
      join(fnm, 'npx.cmd').toLowerCase(),
    );
  });
});
