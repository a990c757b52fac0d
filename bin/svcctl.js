#!/usr/bin/env node
// The svcctl executable: a thin CommonJS shim over the bundled ESM program in dist/. It is CommonJS
// (bin/package.json) because Node starts a CommonJS file faster than an ES module, and it answers
// `--version` itself, from package.json, without loading the program (BENCHMARKS.md, "Start-up").
'use strict';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  // Node 22.1+ keeps compiled code between runs (faster start-up); Node 20 has no such cache.
  require('node:module').enableCompileCache?.();
  import('../dist/main.js').then(({ run }) => run());
}
