// An esbuild plugin that puts the modules of the hot path (`svcctl event send`, one event, and the
// top-level program) into ONE chunk. esbuild splits code by the set of entry points that reach it, and
// every lazy `import()` is an entry point, so without this the ~25 small modules of that path land in
// ~20 chunks of a few hundred bytes; each ESM file costs ~0.4 ms to resolve, read, link and evaluate
// (BENCHMARKS.md, "Start-up"). Here every lazily imported module first imports the whole core, so the
// core's modules are all reached by the same entry points and share one chunk. The core is computed,
// not listed: the modules that the roots below import statically (the roots are lazily imported entry
// points, and import the core like every other one).
import { build } from 'esbuild';
import { isBuiltin } from 'node:module';
import { resolve } from 'node:path';

const CORE_ROOTS = ['src/top-level.ts', 'src/commands/event-send.ts', 'src/http/node-http-transport.ts'];

/**
 * The core (absolute paths of our own modules statically reachable from CORE_ROOTS, and the built-ins
 * they import), and every module that is imported lazily somewhere (the entry points to give it).
 */
async function analyse(root) {
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: ['src/main.ts'],
    bundle: true,
    write: false,
    metafile: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    outdir: 'unused',
    packages: 'external',
    logLevel: 'silent',
  });
  const seen = new Set();
  const builtins = new Set();
  const visit = (file) => {
    if (seen.has(file) || !metafile.inputs[file]) return;
    seen.add(file);
    for (const item of metafile.inputs[file].imports) {
      if (item.kind !== 'import-statement') continue;
      if (!item.external) visit(item.path);
      else if (isBuiltin(item.path) && !CORE_ROOTS.includes(file)) builtins.add(item.path);
    }
  };
  CORE_ROOTS.forEach(visit);
  // The core's built-in modules go with it (each is a small module of its own, see build-builtins.mjs).
  // The roots themselves are lazily imported entry points: they import the core like every other one.
  const ours = [...seen].filter((file) => file.startsWith('src/') && !CORE_ROOTS.includes(file));
  const lazy = new Set();
  for (const input of Object.values(metafile.inputs)) {
    for (const item of input.imports) if (item.kind === 'dynamic-import' && item.path.startsWith('src/')) lazy.add(resolve(root, item.path));
  }
  return { core: new Set([...ours.map((file) => resolve(root, file)), ...builtins]), lazy };
}

export async function coreChunkPlugin(root) {
  const { core, lazy } = await analyse(root);
  return {
    name: 'svcctl-core-chunk',
    setup(b) {
      b.onResolve({ filter: /^svcctl-core$/ }, () => ({ path: 'svcctl-core', namespace: 'svcctl-core' }));
      b.onLoad({ filter: /.*/, namespace: 'svcctl-core' }, () => ({
        resolveDir: root,
        loader: 'js',
        contents: [...core].map((file) => `import ${JSON.stringify(file)};`).join('\n'),
      }));
      b.onLoad({ filter: /\/src\/.*\.ts$/ }, async (args) => {
        if (!lazy.has(args.path) || core.has(args.path)) return undefined;
        const { readFile } = await import('node:fs/promises');
        return { loader: 'ts', contents: `import 'svcctl-core';\n${await readFile(args.path, 'utf8')}` };
      });
    },
  };
}
