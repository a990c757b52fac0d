#!/usr/bin/env node
// The svcctl executable: a thin shim over the bundled program in dist/ (CommonJS, like this file:
// bin/package.json). It answers `--version` itself, from package.json, without loading the program
// (BENCHMARKS.md, "Start-up").
'use strict';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // A reader that is gone (`svcctl --version | head -c 0`) ends it quietly, as in src/main.ts.
  process.stdout.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
  });
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  // Compiled code is kept between runs (src/runtime/compile-cache.ts): ~25 ms less start-up. Only speed depends
  // on it: a home folder that cannot be found (os.homedir() throws) means no cache, never a failed command.
  try {
    const { enableCompileCache } = require('../dist/compile-cache.cjs');
    enableCompileCache({ env: process.env, homeDir: require('node:os').homedir(), distDir: require('node:path').join(__dirname, '..', 'dist') });
  } catch {
    // no cache this time
  }
  require('../dist/main.cjs').run();
}
