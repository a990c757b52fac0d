// `event send --print-curl` without a token; the printed command run by bash and curl is in http-processes.e2e.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';

describe('event send --print-curl', () => {
  it('without any token, it prints the command for $SERVICE_INGEST_TOKEN with a warning on stderr', async () => {
    const printed = await runCli(['event', 'send', '--title', 'none', '--print-curl'], {
      env: { SERVICE_BASE_URL: 'http://127.0.0.1:9/api' },
    });
    assert.equal(printed.code, 0, printed.stderr);
    assert.match(printed.stdout, /"\$SERVICE_INGEST_TOKEN"/);
    assert.match(printed.stderr, /warning: no ingest token is set/);
  });
});
