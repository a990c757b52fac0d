/**
 * createRedactor (src/secrets/redaction.ts) on its own: each form of a secret is
 * checked by decoding the output (test/helpers/secret-encodings.ts), and the
 * rule for short secrets with texts written out by hand.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRedactor } from '../src/secrets/redaction.js';
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

  it('a secret of 3 characters is hidden only as written, where it stands alone; of 1 or 2, not at all', () => {
    const short = createRedactor(['ab1']);
    assert.equal(short.redact('ab1, cab1 ab12 "ab1" ab1'), '***, cab1 ab12 "***" ***');
    assert.equal(short.redact(Buffer.from('ab1').toString('base64')), 'YWIx');
    assert.equal(short.redact('ab1\\u0020 %41 ab1'), '***\\u0020 %41 ***', 'an escape elsewhere in the text changes nothing');
    const tiny = createRedactor(['a', '42']);
    assert.equal(tiny.redact('a value of 42, a 42'), 'a value of 42, a 42');
  });

  it('a space written + (a form body) is hidden, in a text with no escape and with one', () => {
    const spaced = createRedactor(['pw with space']);
    assert.equal(spaced.redact('password=pw+with+space&x=1'), 'password=***&x=1');
    assert.equal(spaced.redact('password=pw+with%20space&x=%41'), 'password=***&x=%41');
  });

  it('texts with no backslash and no % (checked without the full expression) hide every form as the full expression does', () => {
    // Noise made of the secrets' own characters, so that near misses are common; a fixed seed.
    let seed = 7;
    // mulberry32: 32-bit integer steps (a float LCG loses its low bits and repeats itself).
    const random = (below: number): number => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % below;
    };
    const secrets = ['tok/Zq9+xY=abc~é', 'pw with space', 'abcd'];
    const redactor = createRedactor(secrets);
    const forms = (secret: string): string[] => {
      const prefixes = ['', 'a', 'ab'];
      const base64 = prefixes.flatMap((prefix) => [Buffer.from(`${prefix}${secret}!`).toString('base64'), Buffer.from(`${prefix}${secret}`).toString('base64url')]);
      return [secret, secret.replace(/ /g, '+'), ...base64];
    };
    const noise = 'tokZq9+xY=abcwithspace/ ~é-_.';
    for (let round = 0; round < 2000; round++) {
      const secret = secrets[random(secrets.length)]!;
      const form = forms(secret)[random(forms(secret).length)]!;
      const around = (): string => Array.from({ length: random(12) }, () => noise[random(noise.length)]).join('');
      const text = `${around()}${form}${around()}`;
      assert.ok(!/[\\%]/.test(text));
      assert.ok(!reveals(redactor.redact(text), secret), `${JSON.stringify(text)} → ${JSON.stringify(redactor.redact(text))}`);
    }
  });
});
