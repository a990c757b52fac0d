/**
 * `svcctl mcp proxy`'s pipe: the MCP SDK's stdio server transport (the client
 * that started us, on stdin/stdout) joined to its Streamable HTTP client
 * transport (the remote server). Messages pass through unchanged both ways:
 * requests, responses, notifications, and requests the server sends to the
 * client (over the event stream the HTTP transport opens after
 * `notifications/initialized`). A request that cannot be delivered is
 * answered with a JSON-RPC error, so the client never waits forever.
 * stdout carries only the protocol; the log goes to stderr. The bridge ends
 * when stdin ends: the remote session is ended (DELETE), then the transports.
 */
import type { Readable, Writable } from 'node:stream';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isInitializeRequest, isJSONRPCRequest, isJSONRPCResultResponse, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { FetchLike } from './auth-fetch.js';

export interface BridgeOptions {
  url: string;
  fetch: FetchLike;
  stdin: Readable;
  stdout: Writable;
  /** One line on stderr (redacted by the caller). */
  log: (message: string) => void;
  /** Hides the credentials in what is sent back to the client. */
  redact: (text: string) => string;
  /** How long the session's DELETE may take at the end. */
  closeTimeoutMs: number;
}

/** JSON-RPC "server error" range: the proxy could not reach the server. */
const PROXY_ERROR = -32000;

/** The error on one line, redacted first: a secret broken over lines is still whole before the lines are joined. */
function describe(error: unknown, redact: (text: string) => string): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return redact(`${message}${cause}`).replace(/\s+/g, ' ');
}

/** Resolves when stdin has ended and everything is closed. */
export async function runBridge(options: BridgeOptions): Promise<void> {
  const local = new StdioServerTransport(options.stdin, options.stdout);
  const remote = new StreamableHTTPClientTransport(new URL(options.url), { fetch: options.fetch });
  const initializeIds = new Set<string | number>();

  remote.onmessage = (message: JSONRPCMessage) => {
    // The protocol version the server chose goes on every later request (Mcp-Protocol-Version), as the SDK's own client does.
    if (isJSONRPCResultResponse(message) && initializeIds.delete(message.id)) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === 'string') remote.setProtocolVersion(version);
      options.log(`connected to ${options.url}${remote.sessionId ? ` (session ${remote.sessionId})` : ''}`);
    }
    local.send(message).catch((error: unknown) => options.log(`cannot write to stdout: ${describe(error, options.redact)}`));
  };
  remote.onerror = (error) => options.log(`remote: ${describe(error, options.redact)}`);
  local.onerror = (error) => options.log(`stdin: ${describe(error, options.redact)}`);

  local.onmessage = (message: JSONRPCMessage) => {
    if (isJSONRPCRequest(message) && isInitializeRequest(message)) initializeIds.add(message.id);
    remote.send(message).catch((error: unknown) => {
      if (!isJSONRPCRequest(message)) return;
      initializeIds.delete(message.id);
      const reply: JSONRPCMessage = { jsonrpc: '2.0', id: message.id, error: { code: PROXY_ERROR, message: `svcctl mcp proxy: ${describe(error, options.redact)}` } };
      local.send(reply).catch(() => undefined);
    });
  };

  const ended = new Promise<void>((resolve) => {
    options.stdin.once('end', resolve);
    options.stdin.once('close', resolve);
  });
  await remote.start();
  await local.start();
  await ended;

  await Promise.race([
    remote.terminateSession().catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, options.closeTimeoutMs).unref()),
  ]);
  await remote.close();
  await local.close();
}
