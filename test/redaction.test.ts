/**
 * createRedactor (src/redaction.ts) on its own: each form of a secret is
 * checked by decoding the output (test/helpers/secret-encodings.ts), and the
 * rule for short secrets with texts written out by hand.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRedactor } from '../src/redaction.js';
import { ENCODINGS, reveals } from './helpers/secret-encodings.js';

const SECRET = 'tok/Zq9+xY=abc~é';

describe('createRedactor', () => {
  const redactor = createRedactor([SECRET, undefined, '']);

  it('hides every encoding of a secret, alone and inside a longer text', () => {
    for (const [name, encode] of Object.entries(ENCODINGS)) {
      for (const text of [encode(SECRET), `x${encode(`Bearer ${SECRET}`)}x`, encode(`me@example.com:${SECRET}`)]) {
        assert.ok(reveals(text, SECRET), `the detector reads ${name} back`);
        const shown = redactor.redact(text);
        assert.ok(!reveals(shown, SECRET), `${name}: ${text} → ${shown}`);
        assert.match(shown, /\*\*\*/);
      }
    }
  });

  it('hides base64 at each of the three offsets in a longer base64 text, in both alphabets, escaped twice too', () => {
    for (const prefix of ['', 'a', 'ab', 'abc']) {
      const standard = Buffer.from(`${prefix}${SECRET}tail`).toString('base64');
      for (const text of [standard, Buffer.from(`${prefix}${SECRET}tail`).toString('base64url'), JSON.stringify(JSON.stringify(standard))]) {
        assert.ok(!reveals(redactor.redact(text), SECRET), `${prefix}: ${text}`);
      }
    }
    for (const name of ['base64 padded', 'base64 unpadded', 'base64url', 'base64url padded']) assert.equal(redactor.redact(ENCODINGS[name]!(SECRET)), '***', `${name} alone is hidden whole`);
    assert.equal(redactor.redact('"tok\\\\/Zq9\\\\u002bxY=abc~\\u00e9"'), '"***"');
  });

  it('redacts keys and values of parsed JSON, and leaves other text alone', () => {
    assert.deepEqual(redactor.redactValue({ [SECRET]: [`a ${SECRET}`, 1, null] }), { '***': ['a ***', 1, null] });
    assert.equal(redactor.redact('nothing to hide: tok/Zq9'), 'nothing to hide: tok/Zq9');
    assert.equal(createRedactor([]).redact(SECRET), SECRET);
  });

  it('a secret shorter than 4 characters is hidden only as written, where it stands alone', () => {
    const short = createRedactor(['ab1']);
    assert.equal(short.redact('ab1, cab1 ab12 "ab1" ab1'), '***, cab1 ab12 "***" ***');
    assert.equal(short.redact(Buffer.from('ab1').toString('base64')), 'YWIx');
  });
});
