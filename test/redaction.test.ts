/**
 * createRedactor (src/redaction/redaction.ts) on its own: each form of a secret is
 * checked by decoding the output (test/helpers/secret-encodings.ts), and the
 * rule for short secrets with texts written out by hand. Dumps come from the
 * real xxd, od and hexdump where they are installed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dumpWith, installedDumpTools } from './helpers/dump-tools.js';
import { createRedactor, MIN_HEX_BYTES } from '../src/redaction/redaction.js';
import { ENCODINGS, reveals, wrap } from './helpers/secret-encodings.js';

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
      for (const text of [
        standard,
        Buffer.from(`${prefix}${SECRET}tail`).toString('base64url'),
        JSON.stringify(JSON.stringify(standard)),
      ]) {
        assert.ok(!reveals(redactor.redact(text), SECRET), `${prefix}: ${text}`);
      }
    }
    for (const name of ['base64 padded', 'base64 unpadded', 'base64url', 'base64url padded'])
      assert.equal(redactor.redact(ENCODINGS[name]!(SECRET)), '***', `${name} alone is hidden whole`);
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
    assert.equal(
      short.redact('ab1\\u0020 %41 ab1'),
      '***\\u0020 %41 ***',
      'an escape elsewhere in the text changes nothing',
    );
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
      const base64 = prefixes.flatMap((prefix) => [
        Buffer.from(`${prefix}${secret}!`).toString('base64'),
        Buffer.from(`${prefix}${secret}`).toString('base64url'),
      ]);
      return [secret, secret.replace(/ /g, '+'), ...base64];
    };
    const noise = 'tokZq9+xY=abcwithspace/ ~é-_.';
    for (let round = 0; round < 2000; round++) {
      const secret = secrets[random(secrets.length)]!;
      const form = forms(secret)[random(forms(secret).length)]!;
      const around = (): string => Array.from({ length: random(12) }, () => noise[random(noise.length)]).join('');
      const text = `${around()}${form}${around()}`;
      assert.ok(!/[\\%]/.test(text));
      assert.ok(
        !reveals(redactor.redact(text), secret),
        `${JSON.stringify(text)} → ${JSON.stringify(redactor.redact(text))}`,
      );
    }
  });
});

const SECRET_BYTES = Buffer.from(SECRET);
/** The secret inside a longer text, as a job would dump it. */
const LONG = `${'x'.repeat(40)}${SECRET}${'y'.repeat(40)}`;
/** The bytes of a dump read back: each line's hex after its offset, and its text column, joined over the lines. */
function dumpRevealed(dump: string): boolean {
  let bytes = '';
  let column = '';
  for (const line of dump.split('\n')) {
    const match = /^(?:[0-9a-f]{7,8}:?)?((?: {1,2}[0-9a-fA-F]{2,4})+)(?: {2,}\|?([^|]*)\|?)?$/.exec(line);
    if (!match) continue;
    bytes += match[1]!.replace(/ /g, '');
    column += match[2] ?? '';
  }
  const plainTail = SECRET.slice(0, 10);
  return (
    Buffer.from(bytes, 'hex').includes(SECRET_BYTES.subarray(0, 8)) ||
    column.includes(plainTail) ||
    column.includes('Zq9+xY=abc~')
  );
}

describe('createRedactor: hex, lines and URLs', () => {
  const redactor = createRedactor([SECRET]);

  it('hides the hex of a secret as xxd, od and hexdump print it, over lines, offsets and text columns included', (t) => {
    const commands = ['xxd -p', 'xxd -p -u', 'xxd', 'od -An -tx1', 'od -tx1', 'hexdump -C'];
    for (const command of installedDumpTools(t, commands)) {
      for (const input of [SECRET, LONG]) {
        const dump = dumpWith(command, input);
        assert.ok(dump !== undefined, `${command} ran on ${JSON.stringify(input)}`);
        assert.ok(dumpRevealed(dump) || reveals(dump, SECRET), `the detector reads the ${command} dump back`);
        const shown = redactor.redact(dump);
        assert.ok(!dumpRevealed(shown) && !reveals(shown, SECRET), `${command}:\n${dump}\n→\n${shown}`);
        if (input === LONG) assert.match(shown, /78.?78|7878/, `${command}: the bytes around stay`);
      }
    }
  });

  it('hides hex in any case, with colons, spaces or dashes, and leaves ordinary hex and times alone', () => {
    const hex = SECRET_BYTES.toString('hex');
    const pairs = hex.match(/../g)!;
    for (const form of [
      hex,
      hex.toUpperCase(),
      pairs.join(':'),
      pairs.join(':').toUpperCase(),
      pairs.join(' '),
      pairs.join('-'),
    ]) {
      assert.ok(reveals(form, SECRET), `the detector reads ${form} back`);
      assert.equal(redactor.redact(`sum: ${form} end`), 'sum: *** end', form);
    }
    const ordinary = '2026-11-25 12:34:56 commit 9f86d081884c7d659a2feaa0c55ad015 #c0ffee 00:1a:2b:3c:4d:5e';
    assert.equal(redactor.redact(ordinary), ordinary);
  });

  it('a secret under MIN_HEX_BYTES bytes is not looked for in hex; from it on, it is', () => {
    assert.equal(MIN_HEX_BYTES, 6);
    assert.equal(createRedactor(['abcde']).redact('6162636465 61:62:63:64:65'), '6162636465 61:62:63:64:65');
    assert.equal(createRedactor(['abcdef']).redact('616263646566 61:62:63:64:65:66'), '*** ***');
  });

  it("hides base64 wrapped at 76 (MIME, CRLF) and 64 (PEM), whatever the secret's place in the text", () => {
    for (let before = 0; before < 80; before += 7) {
      const encoded = Buffer.from(`${'p'.repeat(before)}${SECRET}${'q'.repeat(30)}`).toString('base64');
      for (const text of [wrap(encoded, 76, '\r\n'), wrap(encoded, 64), JSON.stringify(wrap(encoded, 76, '\r\n'))]) {
        assert.ok(reveals(text, SECRET));
        assert.ok(!reveals(redactor.redact(text), SECRET), `${before}: ${text}`);
      }
    }
  });

  it('hides a secret split by a line break (LF, CRLF, CR, escaped in JSON) at any position, as one ***', () => {
    for (let at = 1; at < SECRET.length; at++) {
      for (const lineBreak of ['\n', '\r\n', '\r', '\\n', '\\r\\n']) {
        const text = `before ${SECRET.slice(0, at)}${lineBreak}${SECRET.slice(at)} after`;
        assert.equal(redactor.redact(text), 'before *** after', JSON.stringify(text));
      }
    }
    assert.equal(redactor.redact('one\ntwo\r\nthree'), 'one\ntwo\r\nthree');
  });

  it('hides the password of any URL, known or not, and nothing else of it', () => {
    const none = createRedactor([]);
    for (const redact of [none, redactor]) {
      assert.equal(
        redact.redact(
          'DATABASE_URL=postgres://u:pw@db/x REDIS="redis://:s3cr%40t@cache:6379/0" https://bob:p@ss@example.com/a?x=1',
        ),
        'DATABASE_URL=postgres://u:***@db/x REDIS="redis://:***@cache:6379/0" https://bob:***@example.com/a?x=1',
      );
      assert.equal(redact.redact('{"url":"https:\\/\\/bob:hunter22@h\\/x"}'), '{"url":"https:\\/\\/bob:***@h\\/x"}');
      const plain = 'ssh://git@github.com:22/x user@example.com https://example.com/a:b@c';
      assert.equal(redact.redact(plain), plain);
      assert.deepEqual(redact.redactValue({ url: 'amqp://guest:guest@mq/' }), { url: 'amqp://guest:***@mq/' });
    }
  });
});
