/**
 * `svcctl mcp proxy` run by `main(argv, io)` in the test process, its stdin and stdout joined to the MCP SDK's
 * client: what the proxy does with credentials and time, without a process. `now` is its clock, so a test
 * moves time past a token's expiry instead of waiting for it (the process tests are in mcp-proxy.e2e).
 */
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { main } from '../../src/main.js';
import { BIN, cleanEnv } from './cli-env.js';

export interface InProcessProxy {
  client: Client;
  stderr(): string;
  /** Closes the client and the proxy's stdin; resolves with the proxy's exit code. */
  close(): Promise<number>;
}

export interface ProxyStreams {
  /** What the client writes: the proxy's stdin. */
  stdin: PassThrough;
  /** What the proxy answers: its stdout. */
  stdout: PassThrough;
  stderr(): string;
  /** The proxy's exit code, once its stdin ended. */
  exit: Promise<number>;
}

/** The proxy's own ends, for a client of the test's choosing (any SDK, or raw JSON-RPC lines). */
export function startProxyStreams(
  args: string[],
  options: { home: string; env?: Record<string, string | undefined>; now?: () => Date },
): ProxyStreams {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const errChunks: Buffer[] = [];
  stderr.on('data', (chunk: Buffer) => errChunks.push(chunk));
  const exit = main(['mcp', 'proxy', ...args], {
    env: cleanEnv(options.home, options.env),
    cwd: options.home,
    homeDir: options.home,
    stdin,
    stdout,
    stderr,
    program: { execPath: process.execPath, script: BIN },
    ...(options.now ? { now: options.now } : {}),
  });
  return { stdin, stdout, stderr: () => Buffer.concat(errChunks).toString('utf8'), exit };
}

export async function startProxyInProcess(
  args: string[],
  options: { home: string; env?: Record<string, string | undefined>; now?: () => Date },
): Promise<InProcessProxy> {
  const { stdin, stdout, stderr, exit } = startProxyStreams(args, options);
  const client = new Client({ name: 'svcctl-proxy-test', version: '1.0.0' });
  // The SDK's stdio server transport reads one stream and writes another: here the proxy's stdout and stdin.
  const transport = new StdioServerTransport(stdout, stdin);
  const connected = client.connect(transport).then(() => 'connected' as const);
  const outcome = await Promise.race([connected, exit]);
  if (outcome !== 'connected') throw new Error(`the proxy exited with ${outcome} before connecting: ${stderr()}`);
  return {
    client,
    stderr,
    close: async () => {
      await client.close();
      stdin.end();
      return exit;
    },
  };
}
