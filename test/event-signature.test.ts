import { PassThrough } from 'node:stream';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, secretsIn } from './helpers/cli.js';
import { hmacVectors } from './helpers/vectors.js';
import { tempDir } from './helpers/temp-dirs.js';

describe('event sign / verify', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir();
  });
  after(async () => {
    const { rm } = await import('node:fs/promises');
    await rm(dir, { recursive: true, force: true });
  });

  for (const vector of hmacVectors()) {
    it(`signs the ${vector.name} vector exactly (secret file with a trailing newline)`, async () => {
      const bodyFile = join(dir, `${vector.name}.body`);
      const secretFile = join(dir, `${vector.name}.secret`);
      await writeFile(bodyFile, vector.body);
      await writeFile(secretFile, `${vector.secret}\n`, { mode: 0o600 });
      const result = await runCli(['event', 'sign', bodyFile, '--hmac-secret-file', secretFile]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, `${vector.signature}\n`);
      assert.deepEqual(secretsIn(result, [vector.secret]), []);
    });

    it(`verifies the ${vector.name} vector from stdin with the secret from the environment`, async () => {
      const result = await runCli(['event', 'verify', '-', '--signature', vector.signature], {
        input: vector.body,
        env: { SERVICE_HMAC_SECRET: vector.secret },
      });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, 'valid\n');
    });
  }

  it('reports a signature over one changed byte as invalid (exit 8)', async () => {
    const [vector] = hmacVectors();
    const changed = Buffer.from(vector!.body);
    changed[0] = changed[0]! ^ 1;
    const result = await runCli(['event', 'verify', '--signature', vector!.signature], {
      input: changed,
      env: { SERVICE_HMAC_SECRET: vector!.secret },
    });
    assert.equal(result.code, 8);
    assert.equal(result.stdout, 'invalid\n');
  });

  it('removes exactly one trailing CRLF from a secret file; a second newline is a line break in the secret (exit 2)', async () => {
    const vector = hmacVectors().find((v) => v.name === 'github-docs')!;
    const bodyFile = join(dir, 'crlf.body');
    await writeFile(bodyFile, vector.body);
    await writeFile(join(dir, 'crlf.secret'), `${vector.secret}\r\n`, { mode: 0o600 });
    await writeFile(join(dir, 'two.secret'), `${vector.secret}\n\n`, { mode: 0o600 });
    const crlf = await runCli(['event', 'sign', bodyFile, '--hmac-secret-file', join(dir, 'crlf.secret')]);
    assert.equal(crlf.stdout, `${vector.signature}\n`);
    const two = await runCli(['event', 'sign', bodyFile, '--hmac-secret-file', join(dir, 'two.secret')]);
    assert.equal(two.code, 2);
    assert.equal(two.stdout, '');
    assert.match(two.stderr, /the HMAC secret in .*two\.secret contains a line break/);
    assert.ok(!two.stderr.includes(vector.secret), 'the secret is never printed');
  });

  it('rejects a malformed --signature with exit 2 before reading anything', async () => {
    const result = await runCli(['event', 'verify', '--signature', 'sha1=abc'], {
      stdin: new PassThrough(),
      env: { SERVICE_HMAC_SECRET: 'k' },
    });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--signature must be sha256=/);
    assert.equal(result.timedOut, false);
  });

  it('fails at once with exit 2 when no secret is set, naming the variable', async () => {
    const result = await runCli(['event', 'sign', '-'], { stdin: new PassThrough() });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /SERVICE_HMAC_SECRET/);
    assert.match(result.stderr, /--hmac-secret-file/);
    assert.equal(result.timedOut, false);
  });

  it('accepts the legacy SVC_HMAC_SECRET, and SERVICE_HMAC_SECRET wins over it', async () => {
    const vector = hmacVectors().find((v) => v.name === 'github-docs')!;
    const legacy = await runCli(['event', 'sign'], { input: vector.body, env: { SVC_HMAC_SECRET: vector.secret } });
    assert.equal(legacy.stdout, `${vector.signature}\n`);
    const both = await runCli(['event', 'sign'], {
      input: vector.body,
      env: { SVC_HMAC_SECRET: 'wrong', SERVICE_HMAC_SECRET: vector.secret },
    });
    assert.equal(both.stdout, `${vector.signature}\n`);
  });
});
