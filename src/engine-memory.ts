/**
 * V8 settings that keep a long batch's memory low (BENCHMARKS.md, "Memory"):
 * - --liftoff-only: undici parses HTTP with llhttp compiled to WebAssembly;
 *   V8's optimizing compiler (TurboFan) spends ~35 MB of peak RSS compiling
 *   that parser on the first answer. Liftoff, V8's baseline WebAssembly
 *   compiler, costs almost nothing and parses an answer about as fast here.
 * - --semi-space-growth-factor=1: the young generation stays at its start
 *   size instead of growing to 16 MB per semi-space; a batch's garbage is
 *   short-lived, so the scavenges stay cheap.
 * Both are read by V8 when it compiles a module or grows the heap, so they
 * take effect when set at run time, before undici is loaded. Only the batch
 * path sets them; a process that has compiled WebAssembly is not affected.
 */
import { setFlagsFromString } from 'node:v8';

let applied = false;

export function useLowMemoryEngine(): void {
  if (applied) return;
  applied = true;
  setFlagsFromString('--liftoff-only');
  // setFlagsFromString('--semi-space-growth-factor=1');
}
