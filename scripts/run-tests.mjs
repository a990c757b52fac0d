// `npm run test:unit`, `npm run test:e2e` and `npm run test:all`: test files named *.e2e.test.ts start svcctl (or a
// shell, a terminal, an MCP client) as a process because the process is what they test; every other test file runs
// svcctl in-process. `all` runs both in one runner, end-to-end files first: they are the longest, and starting them
// first keeps both cores busy to the end instead of waiting for the last slow file of each half.
// `--package` also runs scripts/check-package.sh beside the tests (it mostly waits on npm), its output printed after
// theirs; the tarball is packed before the tests start, since packing rebuilds the dist/ that they run.
// The files run as JavaScript compiled beforehand (scripts/compile-tests.mjs), with source maps.
// Node 20's --test takes no globs, so the files are listed here. `win32` is the named subset of in-process files that
// hold on a real Windows (scripts/win32-tests.txt, also read by scripts/test-win32.sh under Wine).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileTests } from './compile-tests.mjs';
import { changedFiles, realHome, svcctlFilesIn, testHomeEnv } from './real-home-guard.mjs';

const args = process.argv.slice(2);
const list = args.includes('--list');
const withPackage = args.includes('--package');
const kind = args.find((arg) => !arg.startsWith('--'));
if (kind !== 'unit' && kind !== 'e2e' && kind !== 'all' && kind !== 'win32') {
  console.error('usage: node scripts/run-tests.mjs [--list] [--package] unit|e2e|all|win32');
  process.exit(2);
}
const names = readdirSync('test')
  .filter((name) => name.endsWith('.test.ts'))
  .sort();
const e2e = names.filter((name) => name.endsWith('.e2e.test.ts'));
const unit = names.filter((name) => !name.endsWith('.e2e.test.ts'));
const win32 = readFileSync('scripts/win32-tests.txt', 'utf8')
  .split(/\r?\n/)
  .filter((line) => line.trim() !== '' && !line.startsWith('#'))
  .map((path) => path.replace(/^test\//, ''));
const files = { unit, e2e, all: [...e2e, ...unit], win32 }[kind].map((name) => `test/${name}`);
if (list) {
  console.log(files.join('\n'));
  process.exit(0);
}

const children = new Set();

/** Runs a command to its end; resolves with its exit code and, when captured, its output. */
function run(command, commandArgs, capture, env = process.env) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit', env });
    children.add(child);
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.once('close', (code) => {
      children.delete(child);
      resolve({ code: code ?? 1, output });
    });
  });
}

let packageCheck = Promise.resolve({ code: 0, output: '' });
let packDir;
if (withPackage) {
  packDir = mkdtempSync(join(tmpdir(), 'svcctl-test-pack-'));
  const pack = spawnSync('npm', ['pack', '--pack-destination', packDir, '--silent', '--no-audit', '--no-fund'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const tarball = pack.stdout.trim().split('\n').at(-1);
  if (pack.status !== 0 || !tarball) {
    console.error('npm pack failed: the package check cannot run');
    process.exit(1);
  }
  packageCheck = run('bash', ['scripts/check-package.sh', '--tarball', join(packDir, tarball)], true);
}
const compiled = await compileTests();
// A temp HOME for the runner and everything it starts (real-home-guard.mjs); the real one is compared afterwards.
const testHome = mkdtempSync(join(tmpdir(), 'svcctl-test-runner-home-'));
// Stopped, the runner stops its test processes, then removes the compiled folder.
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.once(signal, async () => {
    const ended = [...children].map((child) => new Promise((resolve) => child.once('close', resolve)));
    for (const child of children) child.kill(signal);
    await Promise.all(ended);
    rmSync(compiled, { recursive: true, force: true });
    rmSync(testHome, { recursive: true, force: true });
    if (packDir) rmSync(packDir, { recursive: true, force: true });
    process.exit(code);
  });
}
const compiledFiles = files.map((file) => join(compiled, file.replace(/\.ts$/, '.js')));
// The tests talk only to 127.0.0.1, and those about CAs give their own NODE_EXTRA_CA_CERTS: a bundle inherited from
// the shell is not theirs to use, and Node 20 reads it at every start (~35 ms of CPU for a 220 KB bundle, in each
// test process and each process a test starts). Six files at a time: many wait on servers and child processes.
const { NODE_EXTRA_CA_CERTS: _inherited, ...shellEnv } = process.env;
const testEnv = { ...shellEnv, ...testHomeEnv(testHome) };
const home = realHome();
const homeBefore = svcctlFilesIn(home);
// Source maps cost each test process ~0.15 s of CPU (Node reads every module's map as it loads it): a sixth of the
// suite on two cores. Failures still name the test and its file; SVCCTL_TEST_SOURCE_MAPS=1 maps stacks to the .ts lines.
const sourceMaps = process.env.SVCCTL_TEST_SOURCE_MAPS === '1' ? ['--enable-source-maps'] : [];
const tests = await run(
  process.execPath,
  [...sourceMaps, '--test', '--test-concurrency=6', ...compiledFiles],
  false,
  testEnv,
);
if (tests.code !== 0 && sourceMaps.length === 0)
  console.error(
    'some tests failed: SVCCTL_TEST_SOURCE_MAPS=1 before the same command shows their stacks at the .ts lines',
  );
const checked = await packageCheck;
const homeChanges = changedFiles(homeBefore, svcctlFilesIn(home));
rmSync(compiled, { recursive: true, force: true });
rmSync(testHome, { recursive: true, force: true });
if (packDir) rmSync(packDir, { recursive: true, force: true });
process.stdout.write(checked.output);
if (homeChanges.length > 0)
  console.error(`the tests changed svcctl's files in the real home ${home}:\n  ${homeChanges.join('\n  ')}`);
process.exit(tests.code || checked.code || (homeChanges.length > 0 ? 1 : 0));
