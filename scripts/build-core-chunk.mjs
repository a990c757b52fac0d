// An esbuild plugin that puts the modules of the hot path (`svcctl event send`, one event, and the
// top-level program) into ONE chunk. esbuild splits code by the set of entry points that reach it, and
// every lazy `import()` is an entry point, so without this the ~25 small modules of that path land in
// ~20 chunks of a few hundred bytes; each file costs time to resolve, read, compile and evaluate
// (BENCHMARKS.md, "Start-up"). Here every lazily imported module first imports the whole core, so the
// core's modules are all reached by the same entry points and share one chunk. The core is computed,
// not listed: the modules that the roots below import statically (the roots are lazily imported entry
// points, and import the core like every other one).
import { build } from 'esbuild';
import { resolve } from 'node:path';

// main.ts reaches the event group and `event send` statically, and with it the client of single requests, which
// loads node:http at its first request.
const CORE_ROOTS = ['src/main.ts'];

/**
 * The core (absolute paths of our own modules statically reachable from CORE_ROOTS), and every module
 * that is imported lazily somewhere (the entry points to give it).
 */
async function analyse(root) {
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: ['src/bundle-entry.ts'],
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
  const visit = (file) => {
    if (seen.has(file) || !metafile.inputs[file]) return;
    seen.add(file);
    for (const item of metafile.inputs[file].imports)
      if (item.kind === 'import-statement' && !item.external) visit(item.path);
  };
  CORE_ROOTS.forEach(visit);
  // The roots themselves are lazily imported entry points: they import the core like every other one.
  const ours = [...seen].filter((file) => file.startsWith('src/') && !CORE_ROOTS.includes(file));
  const lazy = new Set();
  for (const input of Object.values(metafile.inputs)) {
    for (const item of input.imports)
      if (item.kind === 'dynamic-import' && item.path.startsWith('src/')) lazy.add(resolve(root, item.path));
  }
  const core = new Set(ours.map((file) => resolve(root, file)));
  // A lazy import of a module every command has loaded already saves nothing, and it makes that module an entry
  // point: it and what it imports leave the core chunk for chunks of their own, files every run then reads.
  const needless = [...lazy].filter((file) => core.has(file));
  if (needless.length > 0)
    throw new Error(
      `import statically, they are in the core chunk: ${needless.map((f) => f.slice(root.length + 1)).join(', ')}`,
    );
  return { core, lazy };
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
