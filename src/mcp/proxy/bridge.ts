/**
 * `svcctl mcp proxy`'s pipe: the MCP SDK's stdio server transport (the client
 * that started us, on stdin/stdout) joined to its Streamable HTTP client
 * transport (the remote server). When both speak the same protocol era,
 * messages pass through unchanged both ways: requests, responses,
 * notifications, and requests the server sends to the client (2025 era, over
 * the event stream the HTTP transport opens after `notifications/initialized`).
 * A 2026-07-28 message carries its `_meta` envelope, from which the transport
 * sets the 2026 headers. A 2025 client in front of a 2026-only server is
 * bridged (era-translation.ts); a client pinned to 2026-07-28 in front of a
 * 2025-only server cannot be, and the proxy says so in its answer to
 * `server/discover` (a client that negotiates then falls back to `initialize`).
 * A request that cannot be delivered is answered with a JSON-RPC error, so the
 * client never waits forever. stdout carries only the protocol; the log goes
 * to stderr. The bridge ends when stdin ends: a 2025 session is ended
 * (DELETE), then the transports.
 */
import type { Readable, Writable } from 'node:stream';
import { isInitializeRequest, isJSONRPCErrorResponse, isJSONRPCRequest, isJSONRPCResultResponse, StreamableHTTPClientTransport, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { FetchLike } from './auth-fetch.js';
import { LegacyToModern, MODERN_REVISION, offeredRevisions, refusesVersion, type InitializeParams } from './era-translation.js';

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
const OWN_DISCOVER_ID = 'svcctl-proxy-discover';

/** The error on one line, redacted first: a secret broken over lines is still whole before the lines are joined. */
function describe(error: unknown, redact: (text: string) => string): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return redact(`${message}${cause}`).replace(/\s+/g, ' ');
}

type Id = string | number;

/** Resolves when stdin has ended and everything is closed. */
export async function runBridge(options: BridgeOptions): Promise<void> {
  // The body of the last refused HTTP answer: the SDK's error names the status only.
  let refusal = '';
  const fetch: FetchLike = async (url, init) => {
    const response = await options.fetch(url, init);
    if (!response.ok) refusal = await response.clone().text().catch(() => '');
    return response;
  };
  const local = new StdioServerTransport(options.stdin, options.stdout);
  const remote = new StreamableHTTPClientTransport(new URL(options.url), { fetch });
  const initialize = new Map<Id, InitializeParams>();
  const discoverIds = new Set<Id>();
  let translation: LegacyToModern | undefined;
  let translatedInitId: Id | undefined;

  const toClient = (message: JSONRPCMessage): void => {
    local.send(message).catch((error: unknown) => options.log(`cannot write to stdout: ${describe(error, options.redact)}`));
  };
  const replyError = (id: Id, text: string): void => toClient({ jsonrpc: '2.0', id, error: { code: PROXY_ERROR, message: options.redact(`svcctl mcp proxy: ${text}`) } });
  const cannotPin = (id: Id, answer: string): void => {
    const text = `${options.url} does not speak MCP ${MODERN_REVISION} (${answer}): a client pinned to ${MODERN_REVISION} cannot use it through the proxy; a client that negotiates falls back to 2025-11-25`;
    options.log(text);
    replyError(id, text);
  };

  /** The server refused the 2025 handshake: learn what it is from server/discover, and answer initialize ourselves. */
  const bridgeToModern = (id: Id): void => {
    translation = new LegacyToModern(initialize.get(id) ?? {});
    translatedInitId = id;
    initialize.delete(id);
    remote.send(translation.discoverRequest(OWN_DISCOVER_ID)).catch((error: unknown) => replyError(id, `server/discover failed: ${describe(error, options.redact)}`));
  };

  remote.onmessage = (message: JSONRPCMessage) => {
    const id = (message as { id?: Id }).id;
    if (id === OWN_DISCOVER_ID && translation && translatedInitId !== undefined) {
      const result = isJSONRPCResultResponse(message) ? message.result : undefined;
      if (!offeredRevisions(result).includes(MODERN_REVISION)) return replyError(translatedInitId, `${options.url} refused 2025-11-25 and does not offer ${MODERN_REVISION} either: ${options.redact(JSON.stringify(isJSONRPCErrorResponse(message) ? message.error : offeredRevisions(result)))}`);
      options.log(`connected to ${options.url} in MCP ${MODERN_REVISION} (the server refused 2025-11-25: the proxy answered initialize and adds the 2026 envelope to each message)`);
      return toClient(translation.initializeResult(translatedInitId, result as Record<string, unknown>));
    }
    if (id !== undefined && initialize.has(id)) {
      if (isJSONRPCErrorResponse(message) && refusesVersion(JSON.stringify(message.error))) return bridgeToModern(id);
      initialize.delete(id);
      // The protocol version the server chose goes on every later request (Mcp-Protocol-Version), as the SDK's own client does.
      const version = isJSONRPCResultResponse(message) ? (message.result as { protocolVersion?: unknown }).protocolVersion : undefined;
      if (typeof version === 'string') {
        remote.setProtocolVersion(version);
        options.log(`connected to ${options.url} in MCP ${version}${remote.sessionId ? ` (session ${remote.sessionId})` : ''}`);
      }
    }
    if (id !== undefined && discoverIds.delete(id)) {
      const offered = offeredRevisions(isJSONRPCResultResponse(message) ? message.result : undefined);
      if (!offered.includes(MODERN_REVISION)) return cannotPin(id, isJSONRPCErrorResponse(message) ? `it answered: ${message.error.message}` : `it offers ${offered.join(', ') || 'nothing'}`);
      options.log(`connected to ${options.url} in MCP ${MODERN_REVISION} (no session)`);
    }
    toClient(translation ? translation.toLegacy(message) : message);
  };
  remote.onerror = (error) => options.log(`remote: ${describe(error, options.redact)}`);
  local.onerror = (error) => options.log(`stdin: ${describe(error, options.redact)}`);

  local.onmessage = (message: JSONRPCMessage) => {
    if (translation) {
      if ((message as { method?: string }).method === 'notifications/initialized') return;
      // 2026-07-28 has no ping: the proxy answers it.
      if (isJSONRPCRequest(message) && message.method === 'ping') return toClient({ jsonrpc: '2.0', id: message.id, result: {} });
      message = translation.envelope(message);
    } else if (isJSONRPCRequest(message) && isInitializeRequest(message)) {
      initialize.set(message.id, message.params as InitializeParams);
    } else if (isJSONRPCRequest(message) && message.method === 'server/discover') {
      discoverIds.add(message.id);
    }
    remote.send(message).catch((error: unknown) => {
      if (!isJSONRPCRequest(message)) return;
      const text = `${describe(error, options.redact)} ${refusal}`;
      if (initialize.has(message.id) && refusesVersion(text)) return bridgeToModern(message.id);
      initialize.delete(message.id);
      if (discoverIds.delete(message.id)) return cannotPin(message.id, `it answered: ${options.redact(describe(error, options.redact))}`);
      replyError(message.id, describe(error, options.redact));
    });
  };

  const ended = new Promise<void>((resolve) => {
    options.stdin.once('end', resolve);
    options.stdin.once('close', resolve);
  });
  await remote.start();
  await local.start();
  await ended;

  if (remote.sessionId !== undefined) {
    await Promise.race([
      remote.terminateSession().catch(() => undefined),
      new Promise((resolve) => setTimeout(resolve, options.closeTimeoutMs).unref()),
    ]);
  }
  await remote.close();
  await local.close();
}
