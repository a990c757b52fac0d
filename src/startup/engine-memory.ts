// V8 flags for a batch's low, flat memory, set at run time as each is read when used (not --max-semi-space-size: read
// only at start). Why each and what it costs: BENCHMARKS.md ("Memory"); what breaks them: docs/architecture.md.
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** A function index no module has: with it as the tier-up filter, no WebAssembly function is re-compiled. */
const NO_WASM_FUNCTION = 2 ** 31 - 1;

/** Both semi-spaces together, as V8 reports the size of new_space. */
const YOUNG_CAP_BYTES = 4 * 1024 * 1024;

let applied = false;

export function useLowMemoryEngine(): void {
  if (applied) return;
  applied = true;
  setFlagsFromString('--liftoff-only');
  // V8 12+ reads --liftoff-only once, at start-up: on Node 22 and 24 undici's HTTP parser (llhttp, WebAssembly) is
  // still re-compiled by TurboFan once it is hot, which takes ~1.4 s of CPU and a 23 MB peak for no gain here.
  setFlagsFromString(`--wasm-tier-up-filter=${NO_WASM_FUNCTION}`);
  setFlagsFromString('--heap-growing-percent=10');
  capYoungGeneration();
}

function capYoungGeneration(): void {
  const youngSize = (): number =>
    getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
  if (youngSize() >= YOUNG_CAP_BYTES) return void setFlagsFromString('--semi-space-growth-factor=1');
  const observer = new PerformanceObserver((list) => {
    const young = list
      .getEntries()
      .some((entry) => (entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR);
    if (!young || youngSize() < YOUNG_CAP_BYTES) return;
    setFlagsFromString('--semi-space-growth-factor=1');
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}
