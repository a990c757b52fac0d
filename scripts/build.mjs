// Bundles src/ into dist/ with esbuild. Each command's implementation is its
// own chunk, loaded by a dynamic import only when that command runs, so
// `svcctl --version` and `svcctl event sign` never load undici.
// The chunks are CommonJS (.cjs): esbuild splits code only in ES module output, so a second pass turns
// each chunk into CommonJS, imports into require() and import() into a require() on demand. Node loads
// CommonJS synchronously, without its ES module loader (~20-30 ms of `event send`; BENCHMARKS.md,
// "Start-up"), and dist/compile-cache.cjs can load it with V8's code cache.
import { build } from 'esbuild';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lazyChildProcess } from './build-lazy-child-process.mjs';
import { coreChunkPlugin } from './build-core-chunk.mjs';
import { thirdPartyNotices } from './notices.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const require = createRequire(join(root, 'package.json'));
const undiciDir = dirname(require.resolve('undici/package.json'));
// V8's largest object in the young generation (kMaxRegularHeapObjectSize): a longer string is allocated outside it.
const LARGE_OBJECT_BYTES = 128 * 1024;

// undici's public entry loads fetch, web streams, caches and mocks: +37 ms of CPU at a batch's first request on
// Node 20 and +42 ms on 22 and 24, and +229 KB of bundle (BENCHMARKS.md, "undici's handler API and its public
// entry"), well over the 10 ms of start-up that a private contract may buy (docs/architecture.md, "Private
// contracts"). svcctl needs a pool, an agent and the proxy agent, whose tunnel calls connect(), one of the
// methods undici's index puts on Dispatcher.prototype: this maps 'undici' to those parts alone.
const slimUndici = {
  name: 'slim-undici',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, () => ({ path: 'undici-slim', namespace: 'slim-undici' }));
    b.onLoad({ filter: /.*/, namespace: 'slim-undici' }, () => ({
      resolveDir: undiciDir,
      loader: 'js',
      contents: `
        const Dispatcher = require('./lib/dispatcher/dispatcher.js');
        Dispatcher.prototype.connect = require('./lib/api/api-connect.js');
        const Pool = require('./lib/dispatcher/pool.js');
        const Agent = require('./lib/dispatcher/agent.js');
        const EnvHttpProxyAgent = require('./lib/dispatcher/env-http-proxy-agent.js');
        module.exports = { Pool, Agent, EnvHttpProxyAgent };
      `,
    }));
  },
};

// Build into a fresh folder and swap it in, so that a CLI started during a
// build never sees a half-written dist/.
const staging = `dist.build-${process.pid}`;
const result = await build({
  absWorkingDir: root,
  entryPoints: { main: 'src/bundle-entry.ts' },
  outdir: staging,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  // Names and whitespace are minified by the second pass (toCommonJs), which leaves the core chunk its names.
  minifySyntax: true,
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  define: { SVCCTL_VERSION: JSON.stringify(pkg.version) },
  outExtension: { '.js': '.cjs' },
  // Prefer a package's ESM build: jsonc-parser's UMD main loads its parts with a
  // require() that cannot be bundled.
  mainFields: ['module', 'main'],
  // The typed commander is types only: at run time it is commander itself.
  alias: { '@commander-js/extra-typings': 'commander' },
  plugins: [slimUndici, lazyChildProcess, await coreChunkPlugin(root)],
  // The package ships this bundle and has no runtime dependencies, except optional native modules
  // (prebuilt per platform, not bundleable): those stay imports, installed by npm as optionalDependencies.
  external: Object.keys(pkg.optionalDependencies ?? {}),
  logLevel: 'warning',
  metafile: true,
});
await toCommonJs(join(root, staging), coreChunkOf(result.metafile));
// The loader of the program, on its own: a chunk shared with the program would be loaded twice, once by each.
await build({
  absWorkingDir: root,
  entryPoints: ['src/startup/compile-cache.ts'],
  outfile: join(staging, 'compile-cache.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.18',
  minify: true,
  sourcemap: 'linked',
  logLevel: 'warning',
});
// The package has no runtime dependencies: their code is in dist/, so their licences are too.
if (process.env.SVCCTL_BUILD_META) writeFileSync(process.env.SVCCTL_BUILD_META, JSON.stringify(result.metafile));
writeFileSync(
  join(root, staging, 'THIRD_PARTY_NOTICES.md'),
  thirdPartyNotices(root, Object.keys(result.metafile.inputs)),
);
const retired = join(root, `dist.old-${process.pid}`);
try {
  renameSync(join(root, 'dist'), retired);
} catch {
  // no previous build
}
renameSync(join(root, staging), join(root, 'dist'));
rmSync(retired, { recursive: true, force: true });

/** The chunk every command loads (build-core-chunk.mjs), as a path relative to the output folder. */
function coreChunkOf(metafile) {
  const [core, ...more] = Object.entries(metafile.outputs).filter(
    ([, output]) => 'src/cli/program.ts' in output.inputs,
  );
  if (!core || more.length > 0) throw new Error('expected one chunk holding src/cli/program.ts');
  return core[0].slice(staging.length + 1);
}

/** Rewrites every chunk in dir as CommonJS, in place (its source map still leads to src/). */
async function toCommonJs(dir, coreChunk) {
  const chunks = readdirSync(dir, { recursive: true }).filter((file) => file.endsWith('.cjs'));
  const options = {
    absWorkingDir: dir,
    outdir: dir,
    outbase: dir,
    allowOverwrite: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20.18',
    // import() becomes a require() inside a promise: nothing is left for the ES module loader.
    supported: { 'dynamic-import': false },
    outExtension: { '.js': '.cjs' },
    minify: true,
    sourcemap: 'linked',
    logLevel: 'warning',
  };
  await build({ ...options, entryPoints: chunks.filter((chunk) => chunk !== coreChunk) });
  // The core keeps its names (its stack traces name the functions). V8 does not read them at run time (the code
  // cache holds the compiled code), and with them its text is over 128 KB, a string V8 keeps outside the young
  // generation. Minified (105 KB), that text and the loader's wrapped copy of it filled the young generation, and
  // every command paid a second scavenge (BENCHMARKS.md, "One scavenge instead of two"). Whitespace stays
  // minified: it would keep comments, and one character of a comment beyond Latin-1 makes V8 store the whole text
  // as UTF-16, twice the size and slower to read.
  await build({ ...options, entryPoints: [coreChunk], minify: false, minifySyntax: true, minifyWhitespace: true });
  const size = statSync(join(dir, coreChunk)).size;
  if (size < LARGE_OBJECT_BYTES)
    console.warn(`build: the core chunk is ${size} bytes, under 128 KB: every command now pays a second scavenge`);
}
