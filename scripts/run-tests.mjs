// `npm run test:unit` and `npm run test:e2e`: test files named *.e2e.test.ts start svcctl (or a shell, a
// terminal, an MCP client) as a process because the process is what they test; every other test file runs
// svcctl in-process. Node 20's --test takes no globs, so the files are listed here.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const list = process.argv[2] === '--list';
const kind = process.argv[list ? 3 : 2];
if (kind !== 'unit' && kind !== 'e2e') {
  console.error('usage: node scripts/run-tests.mjs [--list] unit|e2e');
  process.exit(2);
}
const files = readdirSync('test')
  .filter((name) => name.endsWith('.test.ts') && name.endsWith('.e2e.test.ts') === (kind === 'e2e'))
  .sort()
  .map((name) => `test/${name}`);
if (list) {
  console.log(files.join('\n'));
  process.exit(0);
}
const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=4', ...files], {
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
