/**
 * A secret file that others can read or write is refused before its secret is used (issue 47): exit 7, the file and
 * its mode named, `chmod 600 <file>` as the fix, nothing sent. A device is never opened. On Windows (mode bits are
 * not its permissions) nothing is checked.
 */
import assert from 'node:assert/strict';
import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkSecretFileMode } from '../src/config/secret-files.js';
import { placeSecretFile, runCli } from './helpers/cli.js';
import { type RecordingServer, startRecordingServer } from './helpers/recording-server.js';
import { tempDir } from './helpers/temp-dirs.js';

const SECRET = 'file-secret-Q7w8E9r0';

let server: RecordingServer;
before(async () => {
  server = await startRecordingServer();
});
after(() => server.close());

/** One command per flag, each of which would send the secret to the recording server. */
const COMMANDS: { flag: string; args: (file: string) => string[] }[] = [
  { flag: '--token-file', args: (file) => ['event', 'send', '--title', 't', '--token-file', file] },
  {
    flag: '--hmac-secret-file',
    args: (file) => ['event', 'send', '--title', 't', '--hmac-secret-file', file],
  },
  { flag: '--password-file', args: (file) => ['login', '--email', 'a@example.com', '--password-file', file] },
];

describe('secret files others can read or write', () => {
  for (const { flag, args } of COMMANDS) {
    for (const mode of [0o644, 0o640, 0o604, 0o666, 0o620]) {
      it(`${flag} of mode ${mode.toString(8)}: exit 7 with the chmod fix, nothing sent`, async () => {
        const home = await tempDir('svcctl-secret-mode-');
        const file = await placeSecretFile(home, 'secret.txt', `${SECRET}\n`);
        await chmod(file, mode);
        const sent = server.requests.length;
        const env = { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: 'tok-env-1234' };
        const result = await runCli(args(file), { home, env });
        assert.equal(result.code, 7, result.stderr);
        assert.ok(result.stderr.includes(`${flag} ${file}`), result.stderr);
        assert.ok(result.stderr.includes(`mode ${mode.toString(8)}`), result.stderr);
        assert.ok(result.stderr.includes(`chmod 600 '${file}'`), result.stderr);
        assert.ok(!`${result.stdout}${result.stderr}`.includes(SECRET), 'the secret is not printed');
        assert.equal(server.requests.length, sent, 'nothing was sent');
      });
    }
  }

  it('mode 600 (and 400) is used', async () => {
    const home = await tempDir('svcctl-secret-mode-');
    const file = await placeSecretFile(home, 'secret.txt', `${SECRET}\n`);
    for (const mode of [0o600, 0o400]) {
      await chmod(file, mode);
      const result = await runCli(['event', 'sign', '-', '--hmac-secret-file', file], { home, input: '{}' });
      assert.equal(result.code, 0, result.stderr);
    }
  });

  it('a device is never read: exit 2 naming it', async () => {
    const home = await tempDir('svcctl-secret-mode-');
    // /dev/zero never ends: a read of it would fill the memory, not time out.
    const result = await runCli(['event', 'sign', '-', '--hmac-secret-file', '/dev/zero'], { home, input: '{}' });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /--hmac-secret-file: \/dev\/zero is a device, not a regular file/);
  });

  it('on Windows the mode bits are not checked (its permissions are ACLs)', async () => {
    const home = await tempDir('svcctl-secret-mode-');
    const file = join(home, 'secret.txt');
    await placeSecretFile(home, 'secret.txt', SECRET);
    await chmod(file, 0o666);
    await checkSecretFileMode(file, file, '--token-file', 'win32');
    await assert.rejects(checkSecretFileMode(file, file, '--token-file', 'linux'), (error: Error & { hint?: string }) =>
      Boolean(error.hint?.includes('chmod 600')),
    );
  });
});
