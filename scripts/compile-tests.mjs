// Compiles src/ and test/ to JavaScript in a temp folder, so that the test runner's processes load plain
// JavaScript instead of each starting tsx and transforming every TypeScript file it imports: on 2 cores this
// halves the in-process tests' CPU (BENCHMARKS.md). Type checking stays with `npm run typecheck`.
//
// The folder mirrors the checkout: src/ and test/ are copied, each .ts beside its .js (tests that read the
// sources still find them); test/fixtures and every other top-level entry (bin, dist, node_modules,
// package.json, …) is a link to the checkout's own. Stack traces point at the .ts files when Node reads the
// inline source maps: --enable-source-maps, which `npm run test:unit` passes only with SVCCTL_TEST_SOURCE_MAPS=1.
//   node scripts/compile-tests.mjs        prints the folder it made
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const COMPILED = ['src', 'test'];
const LINKED = new Set(['test/fixtures']);
const SKIPPED = new Set(['.git']);

/** Makes the compiled mirror of the checkout; resolves with its folder. */
export async function compileTests(root = ROOT) {
  const out = mkdtempSync(join(tmpdir(), 'svcctl-tests-'));
  const { compilerOptions } = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8'));
  for (const name of readdirSync(root)) {
    if (!SKIPPED.has(name) && !COMPILED.includes(name)) symlinkSync(join(root, name), join(out, name));
  }
  const pending = [];
  const copyTree = (dir) => {
    mkdirSync(join(out, dir), { recursive: true });
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (LINKED.has(path)) symlinkSync(join(root, path), join(out, path));
      else if (entry.isDirectory()) copyTree(path);
      else pending.push(copyFile(root, out, path, compilerOptions));
    }
  };
  for (const dir of COMPILED) copyTree(dir);
  await Promise.all(pending);
  return out;
}

async function copyFile(root, out, path, compilerOptions) {
  const source = readFileSync(join(root, path));
  writeFileSync(join(out, path), source);
  if (!path.endsWith('.ts') || path.endsWith('.d.ts')) return;
  const { code } = await transform(source.toString('utf8'), {
    loader: 'ts',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    sourcefile: join(root, path),
    tsconfigRaw: { compilerOptions },
  });
  writeFileSync(join(out, path.replace(/\.ts$/, '.js')), code);
}

if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === '') {
  console.log(await compileTests());
}
