// esbuild plugins about Node's built-in modules (BENCHMARKS.md, "Start-up"):
// - builtinsByRequire: `import { createHmac } from 'node:crypto'` in an ES module makes Node build the
//   module's ESM namespace, which reads every export, lazy getters included: importing node:crypto
//   that way loads WebCrypto, importing node:process loads its diagnostic report module. Loading a
//   built-in through require() (the chunks' banner provides one) reads only what the code uses.
// - lazyChildProcess: commander loads node:child_process (and with it dgram and net's socket lists)
//   when it is loaded, for the one call that runs an external subcommand, which svcctl never defines.
//   Its copy is loaded on that call instead.
import { isBuiltin } from 'node:module';

const importers = new Map();

export const builtinsByRequire = {
  name: 'svcctl-builtins-by-require',
  setup(b) {
    b.onResolve({ filter: /^[a-z_:/]+$/ }, (args) => {
      // Only static imports: a dynamic import() of a CommonJS module in a split build would give a
      // namespace with `default` alone, so `(await import('node:https')).Agent` stays Node's own import.
      if (!isBuiltin(args.path) || args.kind !== 'import-statement') return undefined;
      // One wrapper per importing file, so that it lands in that file's chunk: a wrapper shared by
      // files of different chunks would be a chunk of its own (~100 bytes, one more file to load).
      // (Named by a number, not the importer's path: esbuild would read a .mjs ending as "ES module".)
      if (!importers.has(args.importer)) importers.set(args.importer, importers.size);
      return { path: `${args.path}?from=${importers.get(args.importer)}`, namespace: 'svcctl-builtin' };
    });
    b.onLoad({ filter: /.*/, namespace: 'svcctl-builtin' }, (args) => ({
      loader: 'js',
      contents: `module.exports = require(${JSON.stringify(args.path.slice(0, args.path.indexOf('?from=')))});`,
    }));
  },
};

export const lazyChildProcess = {
  name: 'svcctl-lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      args.kind === 'require-call' && /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)
        ? { path: 'commander-child-process', namespace: 'svcctl-lazy-child-process' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'svcctl-lazy-child-process' }, () => ({
      loader: 'js',
      contents: "module.exports = { spawn: (...args) => require('node:child_process').spawn(...args) };",
    }));
  },
};
