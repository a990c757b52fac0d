/**
 * The two kinds of test file stay apart: a file that starts svcctl as a process (or under a terminal) is named
 * *.e2e.test.ts, so `npm run test:unit` stays in-process and the matrix of Node versions stays fast.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const TEST_DIR = import.meta.dirname ?? new URL('.', import.meta.url).pathname;
const STARTS_A_PROCESS = /\b(spawnCli|spawnDev|underTerminal)\(/;

test('no in-process test file starts svcctl as a process', () => {
  const inProcess = readdirSync(TEST_DIR).filter((name) => name.endsWith('.test.ts') && !name.includes('.e2e.'));
  assert.ok(inProcess.length > 50, `found ${inProcess.length} in-process test files`);
  const offenders = inProcess.filter((name) => STARTS_A_PROCESS.test(readFileSync(join(TEST_DIR, name), 'utf8')));
  assert.deepEqual(offenders, [], 'rename these to *.e2e.test.ts or run svcctl in-process (runCli, startDev)');
});
