/**
 * The run's known secrets (src/redaction/known-secrets.ts) and Output's use of them
 * (src/core/output.ts): a value added later is hidden from then on; messages and
 * results are redacted, except a result printed on purpose or redacted by
 * its caller; a --json document stays valid JSON.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KnownSecrets } from '../src/redaction/known-secrets.js';
import { Output, type OutputStream } from '../src/core/output.js';

const TOKEN = 'tok/"quoted"+x=';
const LATER = 'later-secret-value';

function capture(): { stream: OutputStream; text: () => string; bytes: () => unknown[] } {
  const chunks: Array<string | Uint8Array> = [];
  return {
    stream: { write: (chunk) => (chunks.push(chunk), true) },
    text: () =>
      chunks.map((chunk) => (typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))).join(''),
    bytes: () => chunks,
  };
}

describe('KnownSecrets', () => {
  it('hides nothing until a value is added, then every value added, also one added after a first use', () => {
    const secrets = new KnownSecrets();
    const value = { a: [TOKEN] };
    assert.equal(secrets.redactValue(value), value, 'nothing known: the same value back');
    assert.equal(secrets.add(TOKEN), TOKEN);
    assert.equal(secrets.add(undefined), undefined);
    secrets.add('');
    assert.equal(secrets.redact(`a ${TOKEN} and ${LATER}`), `a *** and ${LATER}`);
    secrets.add(LATER);
    secrets.add(TOKEN);
    assert.equal(secrets.redact(`a ${TOKEN} and ${LATER}`), 'a *** and ***');
    assert.deepEqual(secrets.redactValue({ [LATER]: [`x ${TOKEN}`, 1] }), { '***': ['x ***', 1] });
  });
});

describe('Output with the known secrets', () => {
  const setup = () => {
    const secrets = new KnownSecrets();
    secrets.add(TOKEN);
    const stdout = capture();
    const stderr = capture();
    const out = new Output({ stdout: stdout.stream, stderr: stderr.stream, env: {}, verbose: true, redactor: secrets });
    return { out, stdout, stderr, secrets };
  };

  it('redacts every message on stderr', () => {
    const { out, stderr } = setup();
    out.info(`info ${TOKEN}`);
    out.warn(`warn ${TOKEN}`);
    out.debug(`debug ${TOKEN}`);
    out.success(`done ${TOKEN}`);
    out.error(`error ${TOKEN}`, `hint ${encodeURIComponent(TOKEN)}`);
    assert.equal(
      stderr.text(),
      ['info ***', 'warning: warn ***', 'debug ***', '✓ done ***', 'error: error ***', 'hint: hint ***', ''].join('\n'),
    );
  });

  it('redacts results, keeps a --json document valid JSON, and writes raw bytes untouched when they hold no secret', () => {
    const { out, stdout } = setup();
    out.result(`id ${TOKEN}`);
    out.jsonResult({ [TOKEN]: { said: `was ${JSON.stringify(TOKEN)}`, n: 1 } });
    const bytes = Buffer.from('no secret here\n');
    out.raw(bytes);
    out.raw(`raw ${Buffer.from(TOKEN).toString('base64')}\n`);
    const [line, json, plain, raw] = stdout.text().split('\n');
    assert.equal(line, 'id ***');
    assert.deepEqual(JSON.parse(json!), { '***': { said: 'was "***"', n: 1 } });
    assert.equal(plain, 'no secret here');
    assert.equal(stdout.bytes()[2], bytes, 'the same bytes, not a copy');
    assert.equal(raw, 'raw ***');
  });

  it('writes a secret printed on purpose, and a text its caller redacted, as they are', () => {
    const { out, stdout } = setup();
    out.result(TOKEN, { secret: true });
    out.jsonResult({ access_token: TOKEN }, { secret: true });
    out.raw(`${TOKEN}\n`, { redacted: true });
    assert.equal(stdout.text(), `${TOKEN}\n${JSON.stringify({ access_token: TOKEN })}\n${TOKEN}\n`);
  });
});
