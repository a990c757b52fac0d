import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRedactor } from '../src/redaction/redaction.js';
import { positionalSecrets, redactLine, unifiedDiff } from '../src/formats/unified-diff.js';
import { maskEntry } from '../src/redaction/mask-entry.js';

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

  it('shows a value as `mcp get` shows the same entry: one masking (mask-entry.ts), schemes and method names kept', () => {
    const pairs: [string, string][] = [
      ['Authorization', 'Bearer abc123'],
      ['auth', 'oauth'],
      ['token', 'helper'],
      ['password', 'pw1'],
      ['X-Api-Key', '${env:KEY}'],
    ];
    for (const [key, value] of pairs) {
      const shown = (maskEntry({ [key]: value }, none) as Record<string, string>)[key];
      assert.equal(redactLine(`+  "${key}": "${value}",`, none), `+  "${key}": "${shown}",`, key);
    }
    assert.equal(redactLine('+  "auth": "oauth",', none), '+  "auth": "oauth",', 'a method is no secret');
    const [arg] = maskEntry(['Authorization: Bearer abc123'], none) as string[];
    assert.equal(arg, 'Authorization: Bearer ***');
    assert.equal(redactLine('+      "Authorization: Bearer abc123",', none), `+      "${arg}",`);
  });

  it('a Codex env_http_headers table names variables: its values stay readable, as in mcp get', () => {
    const before = '[mcp_servers.a.env_http_headers]\nAuthorization = "OLD_TOKEN_VAR"\n';
    const diff = unifiedDiff('config.toml', before, before.replace('OLD_TOKEN_VAR', 'NEW_TOKEN_VAR'));
    assert.ok(
      diff.includes('-Authorization = "OLD_TOKEN_VAR"') && diff.includes('+Authorization = "NEW_TOKEN_VAR"'),
      diff,
    );
  });
});
