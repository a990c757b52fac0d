// Lists the files of dist/ that one svcctl run loads, and their bytes (on stderr, at exit): what a
// command pays for at start-up, exactly, where times are noisy. Preloaded with -r:
//   node -r ./bench/loaded-files.cjs bin/svcctl.js event send --dry-run --title t --severity info
const Module = require('node:module');
const fs = require('node:fs');
const { statSync } = fs;

const load = Module._load;
const seen = new Set();
Module._load = function (request, parent, isMain) {
  const loaded = load.apply(this, arguments);
  try {
    const file = Module._resolveFilename(request, parent, isMain);
    if (file.includes('/dist/')) seen.add(file);
  } catch {
    // a built-in module
  }
  return loaded;
};
// dist/compile-cache.cjs reads each chunk itself and runs it with vm.Script (V8's code cache), past Module._load.
const readFileSync = fs.readFileSync;
fs.readFileSync = function (file, ...rest) {
  if (typeof file === 'string' && file.includes('/dist/') && file.endsWith('.cjs')) seen.add(file);
  return readFileSync.call(this, file, ...rest);
};
process.on('exit', () => {
  const total = [...seen].reduce((sum, file) => sum + statSync(file).size, 0);
  process.stderr.write(
    `loaded ${seen.size} dist files, ${total} bytes\n${[...seen].map((file) => file.replace(/.*\/dist\//, '  ')).join('\n')}\n`,
  );
});
