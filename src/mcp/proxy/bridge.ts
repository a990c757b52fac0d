// Which client and server eras pass through, are bridged or cannot be: docs/mcp.md, "svcctl mcp proxy".
// An undeliverable request is answered with a JSON-RPC error so the client never waits forever; stdout carries
// only the protocol.
import type { Readable, Writable } from 'node:stream';
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  StreamableHTTPClientTransport,
  type JSONRPCMessage,
} from '@modelcontextprotocol/client';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { FetchLike } from './auth-fetch.js';
import {
  LegacyToModern,
  MODERN_REVISION,
  offeredRevisions,
  refusesVersion,
  type InitializeParams,
} from './era-translation.js';

export interface BridgeOptions {
  url: string;
  fetch: FetchLike;
  stdin: Readable;
  stdout: Writable;
  /** Redacted by the caller. */
  log: (message: string) => void;
  redact: (text: string) => string;
  closeTimeoutMs: number;
}

/** In JSON-RPC's "server error" range. */
const PROXY_ERROR = -32000;
const OWN_DISCOVER_ID = 'svcctl-proxy-discover';

/** Redacted before joining the lines: a secret broken over lines is still whole then. */
function describe(error: unknown, redact: (text: string) => string): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return redact(`${message}${cause}`).replace(/\s+/g, ' ');
}

type Id = string | number;

export async function runBridge(options: BridgeOptions): Promise<void> {
  // The body of the last refused HTTP answer: the SDK's error names the status only.
  let refusal = '';
  const fetch: FetchLike = async (url, init) => {
    const response = await options.fetch(url, init);
    if (!response.ok)
      refusal = await response
        .clone()
        .text()
        .catch(() => '');
    return response;
  };
  const local = new StdioServerTransport(options.stdin, options.stdout);
  const remote = new StreamableHTTPClientTransport(new URL(options.url), { fetch });
  const initialize = new Map<Id, InitializeParams>();
  const discoverIds = new Set<Id>();
  let translation: LegacyToModern | undefined;
  let translatedInitId: Id | undefined;

  const toClient = (message: JSONRPCMessage): void => {
    local
      .send(message)
      .catch((error: unknown) => options.log(`cannot write to stdout: ${describe(error, options.redact)}`));
  };
  const replyError = (id: Id, text: string): void =>
    toClient({
      jsonrpc: '2.0',
      id,
      error: { code: PROXY_ERROR, message: options.redact(`svcctl mcp proxy: ${text}`) },
    });
  const cannotPin = (id: Id, answer: string): void => {
    const text = `${options.url} does not speak MCP ${MODERN_REVISION} (${answer}): a client pinned to ${MODERN_REVISION} cannot use it through the proxy; a client that negotiates falls back to 2025-11-25`;
    options.log(text);
    replyError(id, text);
  };

  const bridgeToModern = (id: Id): void => {
    translation = new LegacyToModern(initialize.get(id) ?? {});
    translatedInitId = id;
    initialize.delete(id);
    remote
      .send(translation.discoverRequest(OWN_DISCOVER_ID))
      .catch((error: unknown) => replyError(id, `server/discover failed: ${describe(error, options.redact)}`));
  };

  remote.onmessage = (message: JSONRPCMessage) => {
    const id = (message as { id?: Id }).id;
    if (id === OWN_DISCOVER_ID && translation && translatedInitId !== undefined) {
      const result = isJSONRPCResultResponse(message) ? message.result : undefined;
      if (!offeredRevisions(result).includes(MODERN_REVISION))
        return replyError(
          translatedInitId,
          `${options.url} refused 2025-11-25 and does not offer ${MODERN_REVISION} either: ${options.redact(JSON.stringify(isJSONRPCErrorResponse(message) ? message.error : offeredRevisions(result)))}`,
        );
      options.log(
        `connected to ${options.url} in MCP ${MODERN_REVISION} (the server refused 2025-11-25: the proxy answered initialize and adds the 2026 envelope to each message)`,
      );
      return toClient(translation.initializeResult(translatedInitId, result as Record<string, unknown>));
    }
    if (id !== undefined && initialize.has(id)) {
      if (isJSONRPCErrorResponse(message) && refusesVersion(JSON.stringify(message.error))) return bridgeToModern(id);
      initialize.delete(id);
      // As the SDK's own client does: the chosen version goes on every later request (Mcp-Protocol-Version).
      const version = isJSONRPCResultResponse(message)
        ? (message.result as { protocolVersion?: unknown }).protocolVersion
        : undefined;
      if (typeof version === 'string') {
        remote.setProtocolVersion(version);
        options.log(
          `connected to ${options.url} in MCP ${version}${remote.sessionId ? ` (session ${remote.sessionId})` : ''}`,
        );
      }
    }
    if (id !== undefined && discoverIds.delete(id)) {
      const offered = offeredRevisions(isJSONRPCResultResponse(message) ? message.result : undefined);
      if (!offered.includes(MODERN_REVISION))
        return cannotPin(
          id,
          isJSONRPCErrorResponse(message)
            ? `it answered: ${message.error.message}`
            : `it offers ${offered.join(', ') || 'nothing'}`,
        );
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
      if (isJSONRPCRequest(message) && message.method === 'ping')
        return toClient({ jsonrpc: '2.0', id: message.id, result: {} });
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
      if (discoverIds.delete(message.id))
        return cannotPin(message.id, `it answered: ${options.redact(describe(error, options.redact))}`);
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
