#!/usr/bin/env node
// The svcctl executable: a thin shim over the bundled program in dist/ (CommonJS, like this file:
// bin/package.json). It answers `--version` itself, from package.json, without loading the program
// (BENCHMARKS.md, "Start-up").
'use strict';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const text = `${require('../package.json').version}\n`;
  // Written to the descriptor: making process.stdout loads Node's streams, a tenth of `node -e 0`.
  try {
    require('node:fs').writeSync(1, text);
  } catch (error) {
    // A full non-blocking pipe: the stream waits for it. A closed one ends quietly, as every command does (main.ts).
    if (error.code === 'EAGAIN') process.stdout.write(text);
    else if (error.code !== 'EPIPE') throw error;
  }
} else {
  const { join } = require('node:path');
  const distDir = join(__dirname, '..', 'dist');
  const main = join(distDir, 'main.cjs');
  // Compiled code is kept between runs (src/startup/compile-cache.ts): ~20 ms less start-up. Only speed depends
  // on it: a home folder that cannot be found (os.homedir() throws) means no cache, never a failed command.
  // On POSIX, os.homedir() is $HOME whenever it is defined (Node's documentation of os.homedir, read 2026-11-27):
  // read so, node:os is not loaded at all (~0.1 ms).
  let homeDir = process.platform === 'win32' ? undefined : process.env.HOME;
  try {
    homeDir ??= require('node:os').homedir();
  } catch {
    // no cache this time
  }
  const program =
    homeDir === undefined
      ? require(main)
      : require('../dist/compile-cache.cjs').loadWithCompileCache(main, {
          env: process.env,
          homeDir,
          distDir,
          require,
        });
  program.run(homeDir);
}
