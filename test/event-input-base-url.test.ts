import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';

describe('a base URL that does not end in /api: the suggested URL', () => {
  const cases: Array<[string, string]> = [
    ['http://host/API', 'http://host/api'],
    ['https://h/Api/', 'https://h/api'],
    ['https://h/api/v1/event', 'https://h/api'],
    ['https://h/tenant/api/v1/event/', 'https://h/tenant/api'],
    ['https://h/tenant/mcp', 'https://h/tenant/api'],
    ['https://h', 'https://h/api'],
    ['https://h/tenant', 'https://h/tenant/api'],
  ];
  for (const [given, suggested] of cases) {
    it(`${given} → did you mean ${suggested}?`, async () => {
      const result = await runCli(['event', 'send', '--title', 'x', '--dry-run', '--base-url', given], {
        env: { SERVICE_INGEST_TOKEN: 't' },
      });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /must end in \/api/);
      assert.ok(result.stderr.includes(`did you mean ${suggested}?`), result.stderr);
    });
  }
});
