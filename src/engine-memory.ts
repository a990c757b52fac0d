/**
 * A V8 setting that keeps a batch's memory low (BENCHMARKS.md, "Memory"):
 * - --liftoff-only: undici parses HTTP with llhttp compiled to WebAssembly;
 *   V8's optimizing compiler (TurboFan) spends ~35 MB of peak RSS compiling
 *   that parser on the first answer. Liftoff, V8's baseline WebAssembly
 *   compiler, compiles it at once; its code parses an answer ~3 µs slower (profile).
 * It is read by V8 when it compiles a module, so it takes effect when set at
 * run time, before undici is loaded. Only the batch path sets it.
 * (--semi-space-growth-factor=1 would also keep the young generation small:
 * 50,000 events at 82 MB instead of 105 MB, but ~3× the GC time; not set.)
 */
import { setFlagsFromString } from 'node:v8';

let applied = false;

export function useLowMemoryEngine(): void {
  if (applied) return;
  applied = true;
  setFlagsFromString('--liftoff-only');
}
