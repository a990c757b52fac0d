// Loaded on first use only; the build maps 'undici' to a slim entry (scripts/build.mjs).
import type * as UndiciModule from 'undici';

export type { Dispatcher } from 'undici';
export type Undici = typeof UndiciModule;

let loading: Promise<Undici> | undefined;

export function loadUndici(): Promise<Undici> {
  // undici is CommonJS: its exports may arrive as the default export.
  loading ??= import('undici').then((mod) => (mod as unknown as { default?: Undici }).default ?? mod);
  return loading;
}
