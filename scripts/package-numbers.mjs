// The package's numbers as the docs state them, checked against what scripts/check-package.sh measured: it prints
// them in the docs' words and exits 1 naming each place that disagrees by more than 5 % (a sentence it cannot find
// counts as a disagreement: the check could not tell). Sizes move with every change; 5 % is a release's drift.
// Usage: node scripts/package-numbers.mjs --tarball-bytes N --installed-kib N --files N --dist-kib N [--root DIR]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const TOLERANCE = 0.05;

const { values } = parseArgs({
  options: {
    'tarball-bytes': { type: 'string' },
    'installed-kib': { type: 'string' },
    files: { type: 'string' },
    'dist-kib': { type: 'string' },
    root: { type: 'string', default: join(dirname(fileURLToPath(import.meta.url)), '..') },
  },
});
const measured = {};
for (const key of ['tarball-bytes', 'installed-kib', 'files', 'dist-kib']) {
  const value = Number(values[key]);
  if (!Number.isInteger(value) || value <= 0) {
    console.error(`package-numbers: --${key} must be a positive whole number (got '${values[key] ?? ''}')`);
    process.exit(2);
  }
  measured[key] = value;
}
const tarballKib = Math.round(measured['tarball-bytes'] / 1024);
const mib = (kib) => (kib / 1024).toFixed(1);
const number = (text) => Number(text.replace(/,/g, ''));

// Each place: the sentence (spaces may be line breaks), and for each number in it what was measured, in its unit.
const places = [
  {
    file: 'README.md',
    pattern: /\((\d[\d,]*) KiB to download, (\d+\.\d) MiB on disk\)/,
    numbers: [
      ['tarball', tarballKib, `${tarballKib} KiB`],
      ['on disk', measured['installed-kib'] / 1024, `${mib(measured['installed-kib'])} MiB`],
    ],
  },
  {
    file: 'docs/install.md',
    pattern:
      /a (\d[\d,]*) KiB tarball,\s+(\d+\.\d) MiB\s+on\s+disk\s+once\s+installed\s+\((\d[\d,]*)\s+files;\s+svcctl's\s+`dist\/`\s+is\s+(\d+\.\d)\s+MiB/,
    numbers: [
      ['tarball', tarballKib, `${tarballKib} KiB`],
      ['on disk', measured['installed-kib'] / 1024, `${mib(measured['installed-kib'])} MiB`],
      ['files', measured.files, `${measured.files} files`],
      ['dist/', measured['dist-kib'] / 1024, `${mib(measured['dist-kib'])} MiB`],
    ],
  },
];

console.log(
  `package-numbers: ${tarballKib} KiB to download, ${mib(measured['installed-kib'])} MiB on disk, ${measured.files} files, dist/ ${mib(measured['dist-kib'])} MiB`,
);
const wrong = [];
for (const place of places) {
  const text = readFileSync(join(values.root, place.file), 'utf8');
  const match = place.pattern.exec(text);
  if (match === null) {
    wrong.push(`${place.file}: the sentence with the package's numbers is not there (${place.pattern.source})`);
    continue;
  }
  place.numbers.forEach(([what, actual, shown], index) => {
    const stated = number(match[index + 1]);
    if (Math.abs(stated - actual) > actual * TOLERANCE)
      wrong.push(`${place.file}: ${what} is ${match[index + 1]} there; measured ${shown}`);
  });
}
for (const line of wrong) console.error(`package-numbers: ${line}`);
if (wrong.length > 0) {
  console.error('package-numbers: FAILED: write the measured numbers into the docs (off by more than 5 %)');
  process.exit(1);
}
console.log('package-numbers: the docs agree');
