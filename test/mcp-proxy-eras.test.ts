/**
 * `svcctl mcp proxy` between stdio clients of both MCP protocol eras and
 * remote servers of both eras (built in the test on the SDK v2): a client on
 * the SDK v2 pinned to 2026-07-28 or negotiating (`auto`), and the v1 SDK
 * client (2025 only). The one pair it cannot bridge (pinned 2026 client,
 * 2025-only server) is refused with an answer that says so. The proxy runs
 * in-process on its stdio streams (what the era bridge does does not depend
 * on a process; the proxy as a process: mcp-proxy.e2e.test.ts).
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client as ModernClient, SdkError } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioServerTransport as LegacyStreams } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StdioServerTransport as ModernStreams } from '@modelcontextprotocol/server/stdio';
import { type ProxyStreams, startProxyStreams } from './helpers/mcp-proxy-in-process.js';
import { startEraServer, type EraServer } from './helpers/mcp-eras.js';
import { tempDir } from './helpers/temp-dirs.js';

const EMAIL = 'eras@example.com';
const PASSWORD = 'eras-proxy-Pa55word';

interface Bridged {
  era: string | undefined;
  echo(text: string): Promise<string>;
  close(): Promise<void>;
}

describe('svcctl mcp proxy between the protocol eras', () => {
  let home: string;
  let modern: EraServer;
  let legacy: EraServer;
  let passwordFile: string;

  before(async () => {
    home = await tempDir();
    passwordFile = join(home, 'password');
    await writeFile(passwordFile, PASSWORD, { mode: 0o600 });
    modern = await startEraServer('2026', PASSWORD);
    legacy = await startEraServer('2025', PASSWORD);
  });
  after(async () => Promise.all([modern?.close(), legacy?.close()]));

  const proxy = (url: string): ProxyStreams =>
    startProxyStreams(['--auth', 'password', '--mcp-url', url, '--email', EMAIL, '--password-file', passwordFile], {
      home,
    });

  // The client's transport reads the proxy's stdout and writes its stdin; closing ends the proxy's stdin.
  async function bridge(kind: 'pinned-2026' | 'auto' | 'legacy-v1', url: string): Promise<Bridged> {
    const text = (result: unknown): string => (result as { content: Array<{ text: string }> }).content[0]!.text;
    const streams = proxy(url);
    const ended = async (): Promise<void> => {
      streams.stdin.end();
      assert.equal(await streams.exit, 0, streams.stderr());
    };
    if (kind === 'legacy-v1') {
      const client = new LegacyClient({ name: 'proxy-test-2025', version: '1' });
      await client.connect(new LegacyStreams(streams.stdout, streams.stdin));
      return {
        era: 'legacy',
        echo: async (value) => text(await client.callTool({ name: 'echo', arguments: { text: value } })),
        close: async () => {
          await client.close();
          await ended();
        },
      };
    }
    const client = new ModernClient(
      { name: `proxy-test-${kind}`, version: '1' },
      { versionNegotiation: { mode: kind === 'auto' ? 'auto' : { pin: '2026-07-28' } } },
    );
    try {
      await client.connect(new ModernStreams(streams.stdout, streams.stdin));
    } catch (error) {
      streams.stdin.end();
      await streams.exit;
      throw error;
    }
    return {
      era: client.getProtocolEra(),
      echo: async (value) => text(await client.callTool({ name: 'echo', arguments: { text: value } })),
      close: async () => {
        await client.close();
        await ended();
      },
    };
  }

  for (const kind of ['pinned-2026', 'auto', 'legacy-v1'] as const) {
    it(`${kind} client → 2026-only server: bridged`, async () => {
      const start = modern.seen.length;
      const bridged = await bridge(kind, modern.url);
      assert.equal(await bridged.echo(`from ${kind}`), `from ${kind}`);
      await bridged.close();
      const seen = modern.seen.slice(start);
      assert.ok(seen.includes('POST tools/call'), seen.join(', '));
      // The 2025 client's initialize is refused by the server; the proxy then asks server/discover in its name.
      if (kind === 'legacy-v1') assert.deepEqual(seen.slice(0, 2), ['POST initialize', 'POST server/discover']);
      else assert.equal(bridged.era, 'modern');
    });
  }

  for (const kind of ['auto', 'legacy-v1'] as const) {
    it(`${kind} client → 2025-only server: bridged in the 2025 era`, async () => {
      const bridged = await bridge(kind, legacy.url);
      assert.equal(bridged.era, 'legacy');
      assert.equal(await bridged.echo('old'), 'old');
      await bridged.close();
    });
  }

  it("pinned-2026 client → 2025-only server: refused, and the proxy's answer says why", async () => {
    const error = await bridge('pinned-2026', legacy.url).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof SdkError, String(error));

    const raw = proxy(legacy.url);
    let stdout = '';
    raw.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    raw.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'server/discover', params: { _meta: meta } })}\n`,
    );
    const line = await new Promise<string>((resolve) =>
      raw.stdout.on('data', () => stdout.includes('\n') && resolve(stdout.split('\n')[0]!)),
    );
    raw.stdin.end();
    await raw.exit;
    const stderr = raw.stderr();
    const answer = JSON.parse(line);
    assert.equal(answer.id, 7);
    assert.match(
      answer.error.message,
      /does not speak MCP 2026-07-28 .*a client pinned to 2026-07-28 cannot use it through the proxy; a client that negotiates falls back to 2025-11-25/,
    );
    assert.match(stderr, /a client pinned to 2026-07-28 cannot use it through the proxy/);
  });
});
