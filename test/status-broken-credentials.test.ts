/**
 * `svcctl status` is a report: a credentials file it cannot use (not JSON, or writable by others) is said on the
 * login line with its fix, every other line is still shown, and the exit code is that file's (7), as for any
 * other command that meets it (docs/deployments.md).
 */
import assert from 'node:assert/strict';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { startDev, type DevServer } from './helpers/dev-sandbox.js';
import { credentialsFile } from './helpers/saved-token.js';
import { tempDir } from './helpers/temp-dirs.js';

const POSIX = process.platform !== 'win32';

async function homeWithCredentials(text: string, mode: number): Promise<string> {
  const home = await tempDir('svcctl-status-');
  const file = credentialsFile(home);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, text, { mode });
  await chmod(file, mode);
  return home;
}

let sandbox: DevServer;
before(async () => {
  sandbox = await startDev();
});
after(() => sandbox.stop());

describe('svcctl status with a credentials file it cannot use', () => {
  it('not JSON: the login line says so with the fix; the deployment, answers, settings and clients lines follow; exit 7', async () => {
    const home = await homeWithCredentials('{"tokens": {', 0o600);
    const result = await runCli(['status'], { home, env: { SERVICE_BASE_URL: sandbox.ready.base_url } });
    assert.equal(result.code, 7, result.stderr);
    const lines = result.stdout.trimEnd().split('\n');
    assert.deepEqual(
      lines.map((line) => line.split(':')[0]),
      ['deployment', 'answers', 'login', 'settings', 'clients'],
      result.stdout,
    );
    assert.match(result.stdout, /^answers: +yes$/m);
    assert.match(
      result.stdout,
      /^login: +unknown: the credentials file .*credentials\.json is not valid JSON .*\(fix it, or delete it/m,
    );
    assert.equal(result.stderr, '', 'said once, on the login line');
  });

  it('writable by others, and no deployment: the login line gives the chmod; --json has it under problems', {
    skip: !POSIX,
  }, async () => {
    const home = await homeWithCredentials('{"tokens":{}}', 0o666);
    const text = await runCli(['status'], { home });
    assert.equal(text.code, 7, text.stderr);
    assert.match(text.stdout, /^deployment: none/m);
    assert.match(text.stdout, /^login: +unknown: .*can be written by other users \(mode 0666\).*\(chmod 600 '/m);
    assert.match(text.stdout, /^clients: /m);
    const json = await runCli(['--json', 'status'], { home });
    assert.equal(json.code, 7, json.stderr);
    const status = JSON.parse(json.stdout) as { login: unknown; problems: Array<Record<string, unknown>> };
    assert.equal(status.login, null);
    assert.equal(status.problems.length, 1);
    assert.equal(status.problems[0]!.part, 'login');
    assert.equal(status.problems[0]!.exit_code, 7);
    assert.match(String(status.problems[0]!.hint), /^chmod 600 /);
  });

  it('a good file: no problem, exit 0', async () => {
    const home = await homeWithCredentials('{"tokens":{}}', 0o600);
    const json = await runCli(['--json', 'status'], { home, env: { SERVICE_BASE_URL: sandbox.ready.base_url } });
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual((JSON.parse(json.stdout) as { problems: unknown[] }).problems, []);
  });
});
