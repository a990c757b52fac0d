// `npm run test:unit`, `npm run test:e2e` and `npm run test:all`: test files named *.e2e.test.ts start svcctl (or a
// shell, a terminal, an MCP client) as a process because the process is what they test; every other test file runs
// svcctl in-process. `all` runs both in one runner, end-to-end files first: they are the longest, and starting them
// first keeps both cores busy to the end instead of waiting for the last slow file of each half.
// Node 20's --test takes no globs, so the files are listed here.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const list = process.argv[2] === '--list';
const kind = process.argv[list ? 3 : 2];
if (kind !== 'unit' && kind !== 'e2e' && kind !== 'all') {
  console.error('usage: node scripts/run-tests.mjs [--list] unit|e2e|all');
  process.exit(2);
}
const names = readdirSync('test')
  .filter((name) => name.endsWith('.test.ts'))
  .sort();
const e2e = names.filter((name) => name.endsWith('.e2e.test.ts'));
const unit = names.filter((name) => !name.endsWith('.e2e.test.ts'));
const files = { unit, e2e, all: [...e2e, ...unit] }[kind].map((name) => `test/${name}`);
if (list) {
  console.log(files.join('\n'));
  process.exit(0);
}
const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=4', ...files], {
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
