/**
 * The layers of src/, top to bottom: a module imports only from its own room or from rooms below it, so
 * each room can be read knowing only the ones under it. docs/architecture.md draws the same map.
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

export const LAYERS = [
  'bundle-entry',
  'main',
  'cli',
  'commands',
  'sandbox',
  'mcp/proxy',
  'mcp/doctor',
  'mcp/install',
  'mcp/clients',
  'mcp/render',
  'mcp',
  'auth',
  'events',
  'http',
  'config',
  // One module per file format (JSONC, TOML, YAML): MCP client files and config.toml are edited with them.
  'formats',
  'fs',
  'core',
  'redaction',
  'startup',
];

const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The room of a file: its folder under src/ (mcp/ counts by sub-folder), or its own name at the root. */
function roomOf(file: string): string {
  const parts = relative(SRC, file).split('/');
  if (parts.length === 1) return parts[0]!.replace(/\.ts$/, '');
  if (parts[0] === 'mcp' && parts.length > 2) return `mcp/${parts[1]}`;
  return parts[0]!;
}

function importsOf(file: string): string[] {
  return ts
    .preProcessFile(readFileSync(file, 'utf8'), true, true)
    .importedFiles.map((imported) => imported.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name.replace(/\.js$/, '.ts')));
}

test('every file of src/ is in a room of the layer list', () => {
  const rooms = new Set(sourceFiles(SRC).map(roomOf));
  assert.deepEqual(
    [...rooms].filter((room) => !LAYERS.includes(room)),
    [],
  );
});

test('no import runs up a layer', () => {
  const upward: string[] = [];
  let arrows = 0;
  for (const file of sourceFiles(SRC)) {
    for (const target of importsOf(file)) {
      const from = LAYERS.indexOf(roomOf(file));
      const to = LAYERS.indexOf(roomOf(target));
      if (from === to) continue;
      arrows++;
      if (to < from) upward.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
    }
  }
  assert.ok(arrows > 100, 'the walk found the imports between rooms');
  assert.deepEqual(upward, []);
});
