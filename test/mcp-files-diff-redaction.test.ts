import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactLine } from '../src/mcp/files/unified-diff.js';

describe('dry-run diff redaction of other servers\' secrets', () => {
  it('hides every secret pair of a one-line JSON object', () => {
    const line = ' "other": {"command": "foo", "env": {"password": "pw1", "GITHUB_TOKEN": "ghp_abc"}, "headers": {"Authorization": "Bearer abc"}}';
    const shown = redactLine(line, []);
    for (const secret of ['pw1', 'ghp_abc', 'Bearer abc']) assert.ok(!shown.includes(secret), `${secret} shown: ${shown}`);
    assert.match(shown, /"command": "foo"/, 'other values stay readable');
  });

  it('hides every secret pair of a TOML inline table', () => {
    const shown = redactLine(' env = { GITHUB_TOKEN = "ghp_abc", password = "pw1", region = "eu" }', []);
    assert.equal(shown, ' env = { GITHUB_TOKEN = "***", password = "***", region = "eu" }');
  });

  it('keeps references readable and hides a literal with an escaped quote', () => {
    assert.equal(redactLine('+      "SERVICE_PASSWORD": "${env:SERVICE_PASSWORD}",', []), '+      "SERVICE_PASSWORD": "${env:SERVICE_PASSWORD}",');
    assert.equal(redactLine('+      "token": "a\\"b",', []), '+      "token": "***",');
  });
});
