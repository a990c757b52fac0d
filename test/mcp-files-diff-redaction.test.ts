import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRedactor } from '../src/redaction/redaction.js';
import { positionalSecrets, redactLine, unifiedDiff } from '../src/formats/unified-diff.js';

const none = createRedactor([]);

describe("dry-run diff redaction of other servers' secrets", () => {
  it('hides every secret pair of a one-line JSON object', () => {
    const line =
      ' "other": {"command": "foo", "env": {"password": "pw1", "GITHUB_TOKEN": "ghp_abc"}, "headers": {"Authorization": "Bearer abc"}}';
    const shown = redactLine(line, none);
    for (const secret of ['pw1', 'ghp_abc', 'Bearer abc'])
      assert.ok(!shown.includes(secret), `${secret} shown: ${shown}`);
    assert.match(shown, /"command": "foo"/, 'other values stay readable');
  });

  it('hides every secret pair of a TOML inline table', () => {
    const shown = redactLine(' env = { GITHUB_TOKEN = "ghp_abc", password = "pw1", region = "eu" }', none);
    assert.equal(shown, ' env = { GITHUB_TOKEN = "***", password = "***", region = "eu" }');
  });

  it('keeps references readable and hides a literal with an escaped quote', () => {
    assert.equal(
      redactLine('+      "SERVICE_PASSWORD": "${env:SERVICE_PASSWORD}",', none),
      '+      "SERVICE_PASSWORD": "${env:SERVICE_PASSWORD}",',
    );
    assert.equal(redactLine('+      "token": "a\\"b",', none), '+      "token": "***",');
  });

  it('hides a literal that merely starts with $ and a capital, keeps $VAR and Bearer ${env:X}', () => {
    assert.equal(redactLine('+  "SERVICE_PASSWORD": "$Ecret-lit/9+",', none), '+  "SERVICE_PASSWORD": "***",');
    assert.equal(
      redactLine('+  "SERVICE_PASSWORD": "$SERVICE_PASSWORD",', none),
      '+  "SERVICE_PASSWORD": "$SERVICE_PASSWORD",',
    );
    assert.equal(
      redactLine('+  "Authorization": "Bearer ${env:TOKEN}",', none),
      '+  "Authorization": "Bearer ${env:TOKEN}",',
    );
    const escaped = '+        "X-Service-Password: ${SVCCTL_LITERAL_DOLLAR:-$}{SERVICE_PASSWORD}",';
    assert.equal(redactLine(escaped, none), escaped);
  });

  it('finds values after a flag named like a secret, in one-line and multi-line args', () => {
    assert.deepEqual(
      positionalSecrets(
        '{"args": ["x", "--pass", "OLDARG1", "--api-key=OLDARG2", "--bypass", "shown", "--token", "${env:T}"]}',
      ),
      ['OLDARG1', 'OLDARG2'],
    );
    assert.deepEqual(positionalSecrets('args = [\n  "--client-secret",\n  \'OLDARG3\',\n]\n'), ['OLDARG3']);
    const before = '{\n  "a": {\n    "args": [\n      "--pass",\n      "OLDARGSECRET"\n    ]\n  }\n}\n';
    const diff = unifiedDiff('x.json', before, before.replace('"a"', '"b"'));
    assert.ok(diff.includes('"--pass"') && !diff.includes('OLDARGSECRET'), diff);
  });
});
