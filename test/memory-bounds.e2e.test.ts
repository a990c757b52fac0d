// useLowMemoryEngine (src/runtime/engine-memory.ts), which a batch calls: the young generation stops growing at
// 4 MB (two 2 MB semi-spaces), where V8 alone grows it further under the same allocations.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const FIXTURE = fileURLToPath(new URL('./fixtures/young-generation.ts', import.meta.url));
const MB = 1024 * 1024;

function largestYoung(mode: 'low' | 'default'): number {
  const run = spawnSync(process.execPath, ['--import', 'tsx', FIXTURE, mode], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, run.stderr);
  return Number(run.stdout.trim());
}

// V8 13 (Node 24) reads the young generation's size only at start-up: the flag set at run time no longer caps it
// (docs/architecture.md, "Private contracts"), so the cap is a Node 20 and 22 behaviour.
const NO_RUNTIME_CAP =
  Number(process.versions.node.split('.')[0]) >= 24
    ? 'V8 on Node 24 ignores the run-time young-generation flag'
    : false;

test('the young generation stays at 4 MB or less with useLowMemoryEngine, and grows past it without', {
  skip: NO_RUNTIME_CAP,
}, () => {
  const without = largestYoung('default');
  assert.ok(
    without > 4 * MB,
    `without the cap the young generation reached only ${without / MB} MB: this test proves nothing`,
  );
  const low = largestYoung('low');
  assert.ok(low <= 4 * MB, `with the cap the young generation reached ${low / MB} MB`);
});
