/**
 * `svcctl dev` in the foreground, in-process: when the port of its last run is taken it listens on another and
 * says so, describes what it serves on stderr, and stops on SIGTERM with exit 0.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { interruptHandled } from '../src/core/interrupt.js';
import { runCli } from './helpers/cli.js';
import { pollUntil } from './helpers/poll.js';
import { tempDir } from './helpers/temp-dirs.js';

describe('svcctl dev in the foreground', () => {
  it('the last run’s port taken: listens on another, says what it serves, SIGTERM stops it with exit 0', async () => {
    const home = await tempDir('svcctl-dev-foreground-');
    const env = { XDG_STATE_HOME: join(home, 'state') };
    const sandboxState = join(home, 'state', 'svcctl', 'sandbox');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as import('node:net').AddressInfo).port;
    try {
      await mkdir(sandboxState, { recursive: true, mode: 0o700 });
      await writeFile(join(sandboxState, 'last-port'), `${taken}\n`);
      const running = runCli(['dev', '--protocol', '2025-11-25', '--webhook', 'ci'], { home, env });
      const port = await pollUntil('the new port remembered', async () => {
        const text = await readFile(join(sandboxState, 'last-port'), 'utf8').catch(() => '');
        return text.trim() !== String(taken) && Number(text.trim()) > 0 ? Number(text.trim()) : undefined;
      });
      assert.ok(interruptHandled('SIGTERM'), 'svcctl dev listens for the signal');
      const result = await running;
      assert.equal(result.code, 0, result.stderr);
      const ready = JSON.parse(result.stdout) as { base_url: string };
      assert.equal(ready.base_url, `http://127.0.0.1:${port}/api`);
      const said = result.stderr;
      assert.match(said, new RegExp(`port ${taken}, the one it had last time, is taken: listening on ${port} instead`));
      assert.match(said, /MCP protocol: 2025-11-25 only/);
      assert.match(said, /webhooks: ci \(unsigned\)/);
      assert.ok(said.includes(`events file: ${join(sandboxState, `events-${port}.ndjson`)}`), said);
      assert.match(said, /passwords, ingest tokens and HMAC secrets are in the ready line on stdout/);
      assert.match(said, /stopping \(SIGTERM\)…\n[^]*stopped/);
    } finally {
      blocker.close();
    }
  });
});
