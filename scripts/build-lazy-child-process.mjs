// An esbuild plugin: commander loads node:child_process (and with it dgram and net's socket lists) when
// it is loaded, for the one call that runs an external subcommand, which svcctl never defines. Its copy
// is loaded on that call instead (BENCHMARKS.md, "Start-up").
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
