import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli, secretsIn } from './helpers/cli.js';
import { accepted, startRecordingServer, type Responder } from './helpers/recording-server.js';

const TOKEN = 'tok-faults-9d2e';
const SECRET = 'sec-faults-51ab';

async function sendAgainst(responder: Responder, extraArgs: string[] = []) {
  const times: number[] = [];
  const timed: Responder = (request, index) => {
    times.push(Date.now());
    return responder(request, index);
  };
  const timedServer = await startRecordingServer(timed);
  try {
    const result = await runCli(['event', 'send', '--title', 'fault test', '--json', ...extraArgs], {
      env: { SERVICE_BASE_URL: timedServer.baseUrl, SERVICE_INGEST_TOKEN: TOKEN, SERVICE_HMAC_SECRET: SECRET },
      timeoutMs: 30_000,
    });
    assert.deepEqual(secretsIn(result, [TOKEN, SECRET]), []);
    return { result, requests: timedServer.requests, times };
  } finally {
    await timedServer.close();
  }
}

function assertIdentical(requests: { body: Buffer; headers: Record<string, unknown> }[]): void {
  for (const request of requests.slice(1)) {
    assert.ok(request.body.equals(requests[0]!.body), 'a retry sent different bytes');
    assert.equal(request.headers['x-hub-signature-256'], requests[0]!.headers['x-hub-signature-256']);
  }
}

describe('event send: delivery faults', () => {
  it('503 twice then 202: three identical requests, exit 0', async () => {
    const { result, requests } = await sendAgainst((request, index) =>
      index < 2 ? { status: 503, body: 'busy' } : accepted(request, index),
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal(requests.length, 3);
    assertIdentical(requests);
    assert.equal(JSON.parse(result.stdout).attempts, 3);
  });

  it('honours Retry-After (seconds) before the next attempt', async () => {
    const { result, requests, times } = await sendAgainst((request, index) =>
      index === 0 ? { status: 429, headers: { 'retry-after': '1' }, body: 'slow down' } : accepted(request, index),
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal(requests.length, 2);
    assert.ok(times[1]! - times[0]! >= 900, `waited only ${times[1]! - times[0]!} ms`);
    assertIdentical(requests);
  });

  it('a reset connection is retried with the same bytes', async () => {
    const { result, requests } = await sendAgainst((request, index) =>
      index === 0 ? 'reset' : accepted(request, index),
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal(requests.length, 2);
    assertIdentical(requests);
  });

  it('401: one request, exit 4, the service message shown', async () => {
    const { result, requests } = await sendAgainst(() => ({
      status: 401,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: 'invalid ingest token' }),
    }));
    assert.equal(result.code, 4);
    assert.equal(requests.length, 1);
    assert.match(result.stderr, /invalid ingest token/);
    assert.equal(JSON.parse(result.stdout).status, 401);
  });

  it('400: exit 5 at once, the service message shown (with secrets redacted)', async () => {
    const { result, requests } = await sendAgainst(() => ({
      status: 400,
      body: JSON.stringify({ message: `event.title too long (token was ${TOKEN})` }),
    }));
    assert.equal(result.code, 5);
    assert.equal(requests.length, 1);
    assert.match(result.stderr, /event\.title too long \(token was \*\*\*\)/);
  });

  it('retries exhausted: exit 6 after 1 + --retries attempts', async () => {
    const { result, requests } = await sendAgainst(() => ({ status: 502, body: 'bad gateway' }), ['--retries', '2']);
    assert.equal(result.code, 6);
    assert.equal(requests.length, 3);
    assertIdentical(requests);
    assert.match(result.stderr, /HTTP 502/);
  });

  it('--retries 0 makes a single attempt', async () => {
    const { result, requests } = await sendAgainst(() => ({ status: 503, body: 'busy' }), ['--retries', '0']);
    assert.equal(result.code, 6);
    assert.equal(requests.length, 1);
  });

  it('an unreachable service is exit 6 with the cause in words', async () => {
    const server = await startRecordingServer();
    const baseUrl = server.baseUrl;
    await server.close();
    const result = await runCli(['event', 'send', '--title', 'x', '--retries', '1'], {
      env: { SERVICE_BASE_URL: baseUrl, SERVICE_INGEST_TOKEN: TOKEN },
    });
    assert.equal(result.code, 6);
    assert.match(result.stderr, /connection refused/);
  });

  it('a proxy that refuses the tunnel ends at once with exit 6, naming the proxy', async () => {
    const { createServer } = await import('node:http');
    // A plain web server as the proxy: it closes every CONNECT tunnel request.
    const proxy = createServer((_req, res) => res.end('not a proxy'));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const { port } = proxy.address() as import('node:net').AddressInfo;
    try {
      const result = await runCli(['event', 'send', '--allow-http', '--title', 'x', '--timeout', '10'], {
        env: {
          SERVICE_BASE_URL: 'http://events.example.invalid/api',
          SERVICE_INGEST_TOKEN: TOKEN,
          HTTP_PROXY: `http://127.0.0.1:${port}`,
        },
        timeoutMs: 15_000,
      });
      assert.equal(result.timedOut, false);
      assert.equal(result.code, 6, result.stderr);
      assert.match(result.stderr, /the proxy http:\/\/127\.0\.0\.1:\d+ refused the connection/);
      assert.doesNotMatch(result.stderr, /retrying/, 'a refused tunnel is final');
    } finally {
      proxy.closeAllConnections();
      proxy.close();
    }
  });

  it('redacts a secret echoed back JSON-escaped or URL-encoded, and neutralizes terminal escapes', async () => {
    const secret = 'se"cr\\et/+ 1';
    const server = await startRecordingServer(() => ({
      status: 400,
      body: JSON.stringify({
        message: `bad signature for ${secret} (${encodeURIComponent(secret)}) \u001b]0;pwned\u0007`,
      }),
    }));
    try {
      const result = await runCli(['event', 'send', '--title', 'x', '--json'], {
        env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: TOKEN, SERVICE_HMAC_SECRET: secret },
      });
      assert.equal(result.code, 5);
      for (const form of [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]) {
        assert.ok(!result.stderr.includes(form) && !result.stdout.includes(form), `secret leaked as ${form}`);
      }
      assert.match(result.stderr, /bad signature for \*\*\* \(\*\*\*\)/);
      assert.ok(!result.stderr.includes('\u001b'), 'no raw escape character on stderr');
      assert.match(result.stderr, /\\u001b\]0;pwned/);
    } finally {
      await server.close();
    }
  });

  it('--json never prints a secret the service echoes, however its JSON escapes it (and on success too)', async () => {
    const token = 'tok/"a<b>&c';
    // Escaped as PHP (\/) and Go (\u003c, \u003e, \u0026) encoders do: parsing turns it back into the token.
    const escaped = JSON.stringify(token)
      .slice(1, -1)
      .replace(/\//g, '\\/')
      .replace(/</g, '\\u003c')
      .replace(/>/g, '\\u003e')
      .replace(/&/g, '\\u0026');
    for (const status of [400, 202]) {
      const server = await startRecordingServer(() => ({
        status,
        body: `{"error":"bad token ${escaped}","echo":{"${escaped}":["${escaped}"]}}`,
      }));
      try {
        const result = await runCli(['event', 'send', '--title', 'x', '--json', '--retries', '0'], {
          env: { SERVICE_BASE_URL: server.baseUrl, SERVICE_INGEST_TOKEN: token },
        });
        assert.equal(result.code, status === 202 ? 0 : 5, result.stderr);
        assert.deepEqual(secretsIn(result, [token, JSON.stringify(token).slice(1, -1)]), []);
        const printed = JSON.parse(result.stdout);
        assert.deepEqual(printed.response.echo, { '***': ['***'] });
      } finally {
        await server.close();
      }
    }
  });

  it('a proxy asking for authentication (407) is exit 6 at once, in words', async () => {
    const { createServer } = await import('node:http');
    const proxy = createServer((_req, res) => res.end());
    proxy.on('connect', (_req, socket) =>
      socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n'),
    );
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const { port } = proxy.address() as import('node:net').AddressInfo;
    try {
      const result = await runCli(['event', 'send', '--title', 'x'], {
        env: {
          SERVICE_BASE_URL: 'https://events.example.invalid/api',
          SERVICE_INGEST_TOKEN: TOKEN,
          HTTPS_PROXY: `http://127.0.0.1:${port}`,
        },
        timeoutMs: 15_000,
      });
      assert.equal(result.code, 6, result.stderr);
      assert.match(result.stderr, /the proxy answered 407 \(proxy authentication required/);
      assert.doesNotMatch(result.stderr, /retrying/);
    } finally {
      proxy.closeAllConnections();
      proxy.close();
    }
  });
});
