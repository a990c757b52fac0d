/**
 * Every secret svcctl can find is known before an argument is checked or echoed (issue 38.3): svcctl's variables,
 * the files its secret flags name, and the saved tokens hide a secret pasted into the wrong flag, in svcctl's own
 * errors and in commander's (an unknown command or option, a bad choice or number), as written, in hex and base64.
 * A secret file read that early is read once: a pipe still gives the command its value.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';
import { saveToken } from './helpers/saved-token.js';

const SECRET = 'whsec_test123456';
const forms = (secret: string): string[] => [
  secret,
  Buffer.from(secret).toString('hex'),
  Buffer.from(secret).toString('base64').replace(/=+$/, ''),
];

/** Each command puts `value` where an argument is checked and echoed; the exit is 2 (a usage error) for each. */
const ECHOES: Array<{ what: string; args: (value: string) => string[] }> = [
  { what: 'event verify --signature', args: (value) => ['event', 'verify', 'body', '--signature', value] },
  {
    what: 'event verify --signature sha256=<hex>',
    args: (value) => ['event', 'verify', 'body', '--signature', `sha256=${value}`],
  },
  { what: 'a choice (--client)', args: (value) => ['mcp', 'install', '--client', value] },
  { what: 'a number (dev --port)', args: (value) => ['dev', '--port', value] },
  { what: 'seconds (event send --timeout)', args: (value) => ['event', 'send', '--timeout', value] },
  { what: 'a name (mcp install --name)', args: (value) => ['mcp', 'install', '--name', `-${value}`] },
  { what: 'an unknown command', args: (value) => [value] },
  { what: 'an unknown option', args: (value) => ['event', 'send', `--${value}`] },
];

function assertHidden(text: string, secret: string, where: string): void {
  for (const form of forms(secret)) assert.ok(!text.includes(form), `${where}: ${form} shown in ${text}`);
}

async function assertEchoesHidden(secret: string, options: Parameters<typeof runCli>[1]): Promise<void> {
  for (const echo of ECHOES) {
    for (const form of forms(secret)) {
      const result = await runCli(echo.args(form), options);
      assert.equal(result.code, 2, `${echo.what}: ${result.stderr}`);
      assert.match(result.stderr, /\*\*\*/, `${echo.what}: the value is named masked`);
      assertHidden(result.stdout + result.stderr, secret, echo.what);
    }
  }
}

describe('secrets known before the arguments are checked', () => {
  it('a variable: SERVICE_HMAC_SECRET and SERVICE_INGEST_TOKEN (and a legacy SVC_ name)', async () => {
    await assertEchoesHidden(SECRET, { env: { SERVICE_HMAC_SECRET: SECRET } });
    await assertEchoesHidden('ingest-0a1b2c3d4e', { env: { SERVICE_INGEST_TOKEN: 'ingest-0a1b2c3d4e' } });
    await assertEchoesHidden('legacy-9f8e7d6c', { env: { SVC_PASSWORD: 'legacy-9f8e7d6c' } });
  });

  it('a file named by --hmac-secret-file, --token-file or --password-file (also as --flag=FILE)', async () => {
    const home = await tempDir('svcctl-home-');
    await writeFile(join(home, 'secret.txt'), `${SECRET}\n`, { mode: 0o600 });
    for (const flag of [
      ['--hmac-secret-file', 'secret.txt'],
      ['--token-file=secret.txt'],
      ['--password-file', 'secret.txt'],
    ]) {
      for (const form of forms(SECRET)) {
        const result = await runCli(['event', 'verify', 'body', '--signature', form, ...flag], { home, cwd: home });
        assert.equal(result.code, 2, result.stderr);
        assertHidden(result.stderr, SECRET, flag.join(' '));
        const unknown = await runCli(['mcp', 'install', '--client', form, ...flag], { home, cwd: home });
        assert.equal(unknown.code, 2, unknown.stderr);
        assertHidden(unknown.stderr, SECRET, `--client with ${flag.join(' ')}`);
      }
    }
  });

  it('the saved tokens of credentials.json', async () => {
    const home = await tempDir('svcctl-home-');
    const token = 'saved-tok-4c5d6e7f8a';
    await saveToken(home, 'https://other.example/api', token);
    await assertEchoesHidden(token, { home });
  });

  it('a secret file that is a pipe: known before the arguments, and read once (the command still gets its value)', async () => {
    const home = await tempDir('svcctl-home-');
    const fifo = join(home, 'secret.fifo');
    await new Promise<void>((done, fail) =>
      spawn('mkfifo', [fifo]).on('exit', (code) => (code === 0 ? done() : fail(new Error(`mkfifo: ${code}`)))),
    );
    // Each writer writes the secret once: a second open of the pipe would wait for a writer that never comes.
    const writeOnce = () => spawn('sh', ['-c', `printf '%s\\n' '${SECRET}' > '${fifo}'`]);
    let writer = writeOnce();
    const echoed = await runCli(['mcp', 'install', '--client', SECRET, '--password-file', fifo], {
      home,
      timeoutMs: 10_000,
    });
    writer.kill();
    assert.equal(echoed.code, 2, echoed.stderr);
    assertHidden(echoed.stderr, SECRET, '--client with --password-file FIFO');
    writer = writeOnce();
    await writeFile(join(home, 'body.json'), '{"a":1}');
    const signed = await runCli(['event', 'sign', 'body.json', '--hmac-secret-file', fifo], {
      home,
      cwd: home,
      timeoutMs: 10_000,
    });
    writer.kill();
    assert.equal(signed.code, 0, signed.stderr);
    assert.equal(signed.stdout.trim(), `sha256=${createHmac('sha256', SECRET).update('{"a":1}').digest('hex')}`);
  });
});
