/**
 * `svcctl mcp proxy` as a child process (the built CLI, temp HOME, clean env),
 * driven over stdio by the MCP SDK's own client, as an MCP client would.
 */
import { readFile } from 'node:fs/promises';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, cleanEnv } from './cli-env.js';

export interface ProxyProcess {
  client: Client;
  transport: StdioClientTransport;
  pid: number;
  stderr(): string;
  /** The process's argv as the OS shows it to other users (/proc/<pid>/cmdline). */
  cmdline(): Promise<string>;
  /** Closes the client (and so the proxy's stdin). */
  close(): Promise<void>;
}

export async function startProxy(
  args: string[],
  options: {
    home: string;
    env?: Record<string, string | undefined>;
    clientOptions?: ClientOptions;
    setup?: (client: Client) => void;
  },
): Promise<ProxyProcess> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', 'proxy', ...args],
    env: cleanEnv(options.home, options.env) as Record<string, string>,
    cwd: options.home,
    stderr: 'pipe',
  });
  const chunks: Buffer[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk));
  const client = new Client({ name: 'svcctl-proxy-test', version: '1.0.0' }, options.clientOptions);
  options.setup?.(client);
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(
      `the proxy did not connect: ${(error as Error).message}\nstderr: ${Buffer.concat(chunks).toString('utf8')}`,
    );
  }
  const pid = transport.pid!;
  return {
    client,
    transport,
    pid,
    stderr: () => Buffer.concat(chunks).toString('utf8'),
    cmdline: async () => (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').join(' ').trim(),
    close: () => client.close(),
  };
}

/** The /mcp lines of the sandbox log: the token hash and the session id of each. */
export function mcpLogLines(log: string): Array<{ line: string; token?: string; session?: string }> {
  return log
    .split('\n')
    .filter((line) => / \/mcp /.test(line))
    .map((line) => ({
      line,
      token: /token sha256:([0-9a-f]+)/.exec(line)?.[1],
      session: /session ([0-9a-f-]{36})/.exec(line)?.[1],
    }));
}
