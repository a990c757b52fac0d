/**
 * The property of issue 38.5: a random secret (6 to 64 bytes) in each form the redactor covers (ALL_ENCODINGS in
 * test/helpers/secret-encodings.ts: escapes, percent-encoding, base64 and base32, hex and dumps, UTF-16, terminal
 * colours, zero-width and full-width characters), inside random text, as the text is or inside a JSON string, never
 * comes out: the redacted text reveals nothing to the decoders of the helper (which do not use the redactor's
 * patterns), and shows *** where the form was. SVCCTL_PROPERTY_RUNS sets the number of secrets (default 25).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createRedactor } from '../src/redaction/redaction.js';
import { ALL_ENCODINGS, reveals } from './helpers/secret-encodings.js';

// What tokens and passwords are made of: printable ASCII, space included, and some letters beyond it.
const SECRET_CHARACTERS = [
  ...Array.from({ length: 95 }, (_unused, index) => String.fromCharCode(0x20 + index)),
  'é',
  'ß',
  'Ω',
  '€',
  '中',
];
const secret = fc
  .array(fc.constantFrom(...SECRET_CHARACTERS), { minLength: 4, maxLength: 64 })
  .map((characters) => characters.join(''))
  .filter((value) => {
    const bytes = Buffer.byteLength(value);
    // A secret of 3 characters is hidden only as written (docs/security.md, "Short values"); one that starts or ends
    // with a space is written trimmed by most tools (and read trimmed from a file).
    return bytes >= 6 && bytes <= 64 && [...value].length >= 4 && value.trim() === value;
  });
// Around the form: log-like text, random enough to sit next to any form, kept apart from it by a space or a line.
const around = fc.string({ unit: fc.constantFrom(...SECRET_CHARACTERS, '\n', '\t', '\u001b'), maxLength: 40 });
const FORMS = Object.entries(ALL_ENCODINGS);
const RUNS = Number(process.env.SVCCTL_PROPERTY_RUNS ?? 25);

describe('redaction: a random secret in each covered form, inside random text', () => {
  it('never comes out', () => {
    fc.assert(
      fc.property(
        secret,
        fc.array(fc.tuple(around, around, fc.constantFrom(' ', '\n'), fc.boolean()), {
          minLength: FORMS.length,
          maxLength: FORMS.length,
        }),
        (value, contexts) => {
          const redactor = createRedactor([value]);
          for (const [index, [name, encode]] of FORMS.entries()) {
            const [before, after, apart, inJson] = contexts[index]!;
            const raw = `${before}${apart}${encode(value)}${apart}${after}`;
            const text = inJson ? JSON.stringify({ answer: raw }) : raw;
            const shown = redactor.redact(text);
            assert.ok(!reveals(shown, value), `${name}: ${JSON.stringify(text)}\n→ ${JSON.stringify(shown)}`);
            assert.ok(shown.includes('***'), `${name}: nothing hidden in ${JSON.stringify(text)}`);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});
