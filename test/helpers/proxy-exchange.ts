/** One MCP exchange with `svcctl mcp proxy` run in-process: initialize sent, its answer awaited, then stdin closed. */
import { PassThrough } from 'node:stream';
import { runCli, type RunResult } from './cli.js';

export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'svcctl-test', version: '1.0.0' } },
});

export async function proxyExchange(args: string[], home: string, env: Record<string, string>): Promise<RunResult> {
  const stdin = new PassThrough();
  let stdout = '';
  const running = runCli(['mcp', 'proxy', ...args], {
    home,
    env,
    stdin,
    timeoutMs: 20_000,
    // The answer is in: the client closes its end, as a client quitting does.
    onStdout: (chunk) => {
      stdout += chunk.toString('utf8');
      if (stdout.includes('\n')) stdin.end();
    },
  });
  stdin.write(`${INITIALIZE}\n`);
  const result = await running;
  stdin.destroy();
  return result;
}
