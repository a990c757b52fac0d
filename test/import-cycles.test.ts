/**
 * No import circle anywhere in src/: each arrow points one way, so a module
 * can be read (and loaded) after the ones it uses. Type-only imports count
 * too: a circle of types is still a knot for a reader. The imports are read
 * with TypeScript's own pre-processor (every static import and export-from,
 * and import() calls).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
// cli-env.js, not cli.js: this file runs no command, and cli.js loads all of svcctl.
import { ROOT } from './helpers/cli-env.js';

// Required, not imported: an import makes Node scan all 9 MB of typescript.js for its export names first (~0.35 s of
// CPU, more than the scan of src/ itself).
const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');

const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles
    .map((imported) => imported.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name.replace(/\.js$/, '.ts')));
}

/** Every elementary circle found by a depth-first walk, each as a list of files (relative to src/). */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open')
        found.push([...stack.slice(stack.indexOf(next)), next].map((path) => relative(SRC, path)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return found;
}

test('src/ has no import circle', () => {
  const graph = new Map(sourceFiles(SRC).map((file) => [file, importsOf(file)]));
  assert.ok(graph.size > 100, 'the walk found the sources');
  assert.deepEqual(
    circles(graph).map((circle) => circle.join(' → ')),
    [],
  );
});
