/** mcp doctor's probe of a remote entry refuses a URL that is not http(s) before connecting to anything. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { probeHttpServer } from '../src/mcp/doctor/http-probe.js';

const redactor = { redact: (text: string) => text, redactValue: (value: unknown) => value };

describe('probeHttpServer: the entry URL', () => {
  for (const url of ['ftp://example.com/mcp', 'ws://127.0.0.1:1/mcp', 'not a url']) {
    it(`${url}: one failed initialize check that says how to fix the entry`, async () => {
      const results = await probeHttpServer({ url, headers: {} }, { timeoutMs: 1000, env: {}, redactor });
      assert.deepEqual(results, [
        {
          name: 'initialize',
          ok: false,
          detail: `the entry's URL is not an http(s) URL: ${url}`,
          fix: 'fix the URL in the entry (svcctl mcp install --force rewrites it)',
        },
      ]);
    });
  }
});
