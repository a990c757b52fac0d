/**
 * `svcctl dev`'s flags and its ready line, in-process: a bad flag, a taken port or an unusable --events-file is
 * exit 2 in words before anything starts, and the ready line's shell forms quote every value as each shell reads
 * it. The sandbox as a process (signals, --detach, real shells): dev-process.e2e.test.ts.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { formatReady } from '../src/sandbox/ready-output.js';
import { runCli } from './helpers/cli.js';
import { runDevExpectingExit } from './helpers/dev-sandbox.js';
import { tempDir } from './helpers/temp-dirs.js';

describe('svcctl dev: what stops it before it starts', { concurrency: true }, () => {
  it('a taken port is a clear error with exit 2 and nothing on stdout', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const result = await runDevExpectingExit(['--port', String(port)]);
      assert.equal(result.code, 2);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
      assert.match(result.stderr, /--port 0/);
    } finally {
      blocker.close();
    }
  });

  it('an --events-file that cannot be used is exit 2 in words, never a bare ENOENT or EISDIR', async () => {
    const dir = await tempDir('svcctl-dev-events-');
    try {
      const folder = await runDevExpectingExit(['--events-file', dir]);
      assert.equal(folder.code, 2);
      assert.equal(folder.stdout, '');
      assert.match(
        folder.stderr,
        new RegExp(
          `^error: cannot write --events-file '${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}': it is a folder, not a file$`,
          'm',
        ),
      );
      const noFolder = await runDevExpectingExit(['--events-file', join(dir, 'missing', 'events.ndjson')]);
      assert.equal(noFolder.code, 2);
      assert.match(
        noFolder.stderr,
        /cannot write --events-file '.*\/missing\/events\.ndjson': its folder does not exist$/m,
      );
      for (const result of [folder, noFolder]) assert.ok(!/\bE[A-Z]{3,}\b/.test(result.stderr), result.stderr);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('bad flag values are usage errors (exit 2)', async () => {
    for (const args of [
      ['--user', 'not-an-email:pw'],
      ['--user', 'a@example.com:'],
      ['--webhook', 'bad name'],
      ['--port', '70000'],
      ['--user', 'a@example.com:x', '--user', 'A@example.com:y'],
    ]) {
      const result = await runDevExpectingExit(args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.equal(result.stdout, '');
    }
  });
  it('--json with --format sh is a usage error, before anything starts', async () => {
    const result = await runCli(['--json', 'dev', '--detach', '--format', 'sh']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /error: --json and --format sh ask for two forms of the ready line/);
    assert.equal(result.stdout, '');
  });
});

describe('the ready line as shell commands (formatReady)', () => {
  const ready = {
    base_url: 'http://127.0.0.1:1234/api',
    mcp_url: 'http://127.0.0.1:1234/mcp',
    users: [{ email: 'a@example.com', password: `p'q\\r` }],
    webhooks: [{ name: 'demo', ingest_token: 'ing_1', hmac_secret: null }],
  };

  it('fish: \\ and \' outside the quotes, since fish reads them as escapes inside (fish docs, "Quotes")', () => {
    const text = formatReady(ready, 'fish', 42);
    assert.ok(text.includes(`set -gx SERVICE_PASSWORD 'p'\\''q'\\\\'r'\n`), text);
    assert.ok(text.includes("set -gx SERVICE_HMAC_SECRET ''\nset -gx SVC_HMAC_SECRET ''\n"), text);
    assert.ok(text.includes('set -gx SVCCTL_DEV_PID 42\nfunction svcctl_dev_stop\n'), text);
  });

  it('powershell: single quotes, a quote written twice (about_Quoting_Rules)', () => {
    const text = formatReady(ready, 'powershell');
    assert.ok(text.includes(`$env:SERVICE_PASSWORD = 'p''q\\r'\n`), text);
    assert.ok(text.startsWith("$env:SERVICE_BASE_URL = 'http://127.0.0.1:1234/api'\n"), text);
    assert.doesNotMatch(text, /SVCCTL_DEV_PID|Stop-Process/, 'no pid without --detach');
    assert.match(text, /^function global:svcctl_dev_stop \{\n {2}Remove-Item -Path Env:SERVICE_BASE_URL, /m);
  });

  it('json: the ready line itself, with the pid only when detached', () => {
    assert.deepEqual(JSON.parse(formatReady(ready, 'json')), ready);
    assert.deepEqual(JSON.parse(formatReady(ready, 'json', 7)), { ...ready, pid: 7 });
  });
});
