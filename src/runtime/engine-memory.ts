/**
 * V8 settings that keep a batch's memory low and flat (BENCHMARKS.md, "Memory"). Each is read by V8
 * when it is used, not only when the heap is made, so setting it at run time works (each was measured:
 * `--max-semi-space-size`, read only at start, has no effect when set here). Only the batch path (its own chunk) loads this module.
 * - --liftoff-only: undici parses HTTP with llhttp compiled to WebAssembly; V8's optimizing compiler
 *   (TurboFan) spends ~35 MB of peak RSS compiling that parser on the first answer. Liftoff, V8's
 *   baseline WebAssembly compiler, compiles it at once; its code parses an answer ~3 µs slower.
 * - --heap-growing-percent=10: after a full collection, the old generation may grow by 10% before the
 *   next one (V8 otherwise lets it grow to several times what is alive): ~15 MB less at any length.
 * - The young generation: V8 doubles its two semi-spaces from 1 MB up to 16 MB while objects survive,
 *   ~28 MB more RSS once a batch runs for a while. Each doubling halves the collections (their time is
 *   the work of copying what is alive, the same each time). Growth stops at 2 MB semi-spaces
 *   (YOUNG_CAP_BYTES): after each young collection, once the young generation has reached it,
 *   --semi-space-growth-factor=1 keeps it there. 1 MB semi-spaces cost ~2× the collection time of
 *   16 MB ones; 2 MB, about half of that extra.
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** Both semi-spaces together, as V8 reports the size of new_space. */
const YOUNG_CAP_BYTES = 4 * 1024 * 1024;

let applied = false;

export function useLowMemoryEngine(): void {
  if (applied) return;
  applied = true;
  setFlagsFromString('--liftoff-only');
  setFlagsFromString('--heap-growing-percent=10');
  capYoungGeneration();
}

function capYoungGeneration(): void {
  const youngSize = (): number => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
  if (youngSize() >= YOUNG_CAP_BYTES) return void setFlagsFromString('--semi-space-growth-factor=1');
  const observer = new PerformanceObserver((list) => {
    const young = list.getEntries().some((entry) => (entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR);
    if (!young || youngSize() < YOUNG_CAP_BYTES) return;
    setFlagsFromString('--semi-space-growth-factor=1');
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}
