// The published package.json carries no `prepare` script: the tarball ships the built dist/, and npm
// treats a package's own `prepare` as an install script (a warning, or a refusal, on `npm install -g`).
// A git clone still needs it (`npm ci` builds dist/ through it). So `npm pack`/`npm publish` run
// `strip` in prepack (package.json is copied to package.json.prepack first) and `restore` in postpack.
// Usage: node scripts/pack-manifest.mjs strip|restore
import { copyFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = join(root, 'package.json');
const saved = `${manifest}.prepack`;
const action = process.argv[2];

if (action === 'strip') {
  // A pack that failed half-way left the saved copy: that copy is the true package.json.
  if (existsSync(saved)) renameSync(saved, manifest);
  const text = readFileSync(manifest, 'utf8');
  copyFileSync(manifest, saved);
  const pkg = JSON.parse(text);
  delete pkg.scripts.prepare;
  writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (action === 'restore') {
  if (existsSync(saved)) renameSync(saved, manifest);
} else {
  process.stderr.write('usage: node scripts/pack-manifest.mjs strip|restore\n');
  process.exit(2);
}
