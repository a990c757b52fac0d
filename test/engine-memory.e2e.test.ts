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

test('the young generation stays at 4 MB or less with useLowMemoryEngine, and grows past it without', () => {
  const without = largestYoung('default');
  assert.ok(without > 4 * MB, `without the cap the young generation reached only ${without / MB} MB: this test proves nothing`);
  const low = largestYoung('low');
  assert.ok(low <= 4 * MB, `with the cap the young generation reached ${low / MB} MB`);
});
