/**
 * .github/workflows/ci.yml says what each hosted runner runs: the whole `test:unit` on ubuntu and macOS, and on
 * Windows only the named subset that holds there. That subset is one list, scripts/win32-tests.txt, read both by the
 * runner (`run-tests.mjs win32`) and by scripts/test-win32.sh (Wine): these tests fail when either keeps its own.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
// cli-env.js, not cli.js: this file runs no command, and cli.js loads all of svcctl.
import { ROOT } from './helpers/cli-env.js';

interface Step {
  if?: string;
  run?: string;
}
interface Workflow {
  jobs: { unit: { strategy: { matrix: { os: string[] } }; steps: Step[] } };
}

const workflow = parse(readFileSync(join(ROOT, '.github', 'workflows', 'ci.yml'), 'utf8')) as Workflow;
const listed = readFileSync(join(ROOT, 'scripts', 'win32-tests.txt'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.startsWith('#'));

/** The test command a runner of this system runs: the steps with a `run:` whose `if:` lets that system through. */
function runsOn(os: 'Windows' | 'macOS' | 'Linux'): string[] {
  return workflow.jobs.unit.steps
    .filter((step) => step.run?.includes('test'))
    .filter((step) => {
      if (step.if === undefined) return true;
      const equal = /runner\.os == '(\w+)'/.exec(step.if);
      const unequal = /runner\.os != '(\w+)'/.exec(step.if);
      return equal ? equal[1] === os : unequal ? unequal[1] !== os : true;
    })
    .map((step) => step.run!.trim());
}

describe('what each CI runner runs', () => {
  it('ubuntu and macOS run the whole test:unit; Windows runs the win32 list and nothing else', () => {
    assert.deepEqual(workflow.jobs.unit.strategy.matrix.os.sort(), ['macos-latest', 'ubuntu-latest', 'windows-latest']);
    assert.deepEqual(runsOn('Linux'), ['npm run test:unit']);
    assert.deepEqual(runsOn('macOS'), ['npm run test:unit']);
    assert.deepEqual(runsOn('Windows'), ['node scripts/run-tests.mjs win32']);
  });

  it('run-tests.mjs win32 runs exactly the files of scripts/win32-tests.txt, each an in-process test that exists', () => {
    const r = spawnSync(process.execPath, ['scripts/run-tests.mjs', '--list', 'win32'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(r.stdout.trim().split('\n'), listed);
    assert.ok(listed.length >= 10, `${listed.length} files`);
    for (const file of listed) {
      assert.ok(existsSync(join(ROOT, file)), file);
      assert.ok(!file.endsWith('.e2e.test.ts'), file);
    }
  });

  it('scripts/test-win32.sh reads the same list and names no test file of its own', () => {
    const script = readFileSync(join(ROOT, 'scripts', 'test-win32.sh'), 'utf8');
    assert.match(script, /scripts\/win32-tests\.txt/);
    for (const file of listed) assert.ok(!script.includes(file), `${file} is named in the script too`);
  });
});
