// THIRD_PARTY_NOTICES.md for dist/: the name, version, licence and licence text of every package
// whose code the bundle holds (found from esbuild's metafile inputs, read from node_modules).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The package folder (relative to root) of a bundled input path, or undefined for our own sources. */
function packageDir(input) {
  if (/^svcctl-[a-z-]+:/.test(input)) return undefined; // the build's own small modules (scripts/build-*.mjs)
  const path = input.replace(/^[a-z-]+:/, '');
  const parts = path.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at === -1) return undefined;
  const size = parts[at + 1]?.startsWith('@') ? 2 : 1;
  return parts.slice(0, at + 1 + size).join('/');
}

function licenceText(dir) {
  const file = readdirSync(dir).find((name) => /^(licen[cs]e|copying)(\.|$)/i.test(name));
  return file ? readFileSync(join(dir, file), 'utf8').trim() : undefined;
}

export function thirdPartyNotices(root, inputs) {
  const dirs = [...new Set(inputs.map(packageDir).filter(Boolean))].sort();
  const sections = dirs.map((dir) => {
    const full = join(root, dir);
    if (!existsSync(full)) throw new Error(`notices: ${dir} not found`);
    const pkg = JSON.parse(readFileSync(join(full, 'package.json'), 'utf8'));
    const text =
      licenceText(full) ?? `(no licence file in the package; its package.json says: ${pkg.license ?? 'nothing'})`;
    return `## ${pkg.name} ${pkg.version} (${pkg.license ?? 'unknown licence'})\n\n\`\`\`\n${text}\n\`\`\`\n`;
  });
  return `# Third-party notices\n\nThe svcctl bundle in this folder contains code of these ${dirs.length} packages, each under its own licence.\n\n${sections.join('\n')}`;
}
