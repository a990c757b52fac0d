/**
 * The dumps and decorations of issue 38.5 as the real tools print them (od -x, hexdump, od -c, base32, xxd of
 * UTF-16 from iconv, where installed), the examples of the issue as written, and what the normalised view leaves
 * alone: the text around a hidden secret keeps its colours, full-width characters and escapes.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { createRedactor } from '../src/redaction/redaction.js';
import { reveals } from './helpers/secret-encodings.js';

const TOKEN = 'ing_gVLALo7Qx2pTz9';
const LONG = `${'x'.repeat(40)}${TOKEN}${'y'.repeat(40)}`;
const redactor = createRedactor([TOKEN]);

const tool = (command: string, input: string): string | undefined => {
  const result = spawnSync('sh', ['-c', command], { input: Buffer.from(input), encoding: 'latin1' });
  return result.status === 0 ? result.stdout : undefined;
};

describe('redaction: dumps and decorations', () => {
  it('hides the secret in what od -x, hexdump, od -c, base32 and xxd of UTF-16 print, at any offset', (t) => {
    const commands = ['od -x', 'od -An -x', 'hexdump', 'hexdump -x', 'od -c', 'base32', 'iconv -t UTF-16LE | xxd -p'];
    const missing = commands.filter((command) => tool(command, 'a') === undefined);
    if (missing.length > 0) t.diagnostic(`not installed, not checked: ${missing.join(', ')}`);
    // od is in coreutils, on every machine: without it this test would check nothing.
    assert.deepEqual(
      missing.filter((command) => command.startsWith('od ')),
      [],
      'od (coreutils) runs',
    );
    for (const command of commands.filter((each) => !missing.includes(each))) {
      for (const input of [TOKEN, `a${TOKEN}`, LONG, `${LONG}z`]) {
        const dump = tool(command, input);
        assert.ok(dump !== undefined, `${command} ran on ${JSON.stringify(input)}`);
        assert.ok(reveals(dump, TOKEN), `the detector reads the ${command} dump back:\n${dump}`);
        const shown = redactor.redact(dump);
        assert.ok(!reveals(shown, TOKEN), `${command}:\n${dump}\n→\n${shown}`);
        assert.match(shown, /\*\*\*/);
      }
    }
  });

  it('the examples of the issue, as written', () => {
    const cases = {
      'ANSI inside (diff highlighter)': `token: ing_gV\u001b[1mLALo7Q\u001b[0mx2pTz9 end`,
      'grep --color': `ing_gV\u001b[01;31m\u001b[KLALo7Qx2p\u001b[m\u001b[KTz9`,
      'zero-width space': `ing_gVLA\u200bLo7Qx2pTz9`,
      'full-width': [...TOKEN].map((char) => String.fromCharCode(char.charCodeAt(0) + 0xfee0)).join(''),
      'HTML entities': [...TOKEN].map((char) => `&#${char.charCodeAt(0)};`).join(''),
      '\\xNN': [...TOKEN].map((char) => `\\x${char.charCodeAt(0).toString(16).toUpperCase()}`).join(''),
      'UTF-16LE': Buffer.from(TOKEN, 'utf16le').toString('latin1'),
      'UTF-16LE in JSON': JSON.stringify(Buffer.from(TOKEN, 'utf16le').toString('latin1')),
      'UTF-16LE hex, upper case': Buffer.from(TOKEN, 'utf16le').toString('hex').toUpperCase(),
      'spaced out': [...TOKEN].join(' '),
    };
    for (const [name, text] of Object.entries(cases)) {
      assert.ok(reveals(text, TOKEN), `the detector reads ${name} back`);
      const shown = redactor.redact(text);
      assert.ok(!reveals(shown, TOKEN), `${name}: ${JSON.stringify(text)} → ${JSON.stringify(shown)}`);
      assert.match(shown, /\*\*\*/, name);
    }
  });

  it('keeps the text around as it was: colours, full-width characters, escapes, NULs', () => {
    const text = `\u001b[32mok\u001b[0m ｆｕｌｌ \\u00e9 a\u0000b &amp; ing_gV\u001b[1mLALo7Qx2pTz9\u001b[0m tail`;
    assert.equal(redactor.redact(text), `\u001b[32mok\u001b[0m ｆｕｌｌ \\u00e9 a\u0000b &amp; *** tail`);
    assert.equal(redactor.redact('ｆｕｌｌ width, no secret'), 'ｆｕｌｌ width, no secret');
  });

  it('a secret given in a decorated form is hidden as it is folded too', () => {
    const wide = createRedactor(['ｓｅｃｒｅｔ１２３']);
    assert.equal(wide.redact('pw secret123 and ｓｅｃｒｅｔ１２３'), 'pw *** and ***');
  });
});
