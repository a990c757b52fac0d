// Which client and server eras pass through, are bridged or cannot be: docs/mcp.md, "svcctl mcp proxy".
// An undeliverable request is answered with a JSON-RPC error so the client never waits forever; stdout carries
// only the protocol.
import type { Readable, Writable } from 'node:stream';
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  serializeMessage,
  StreamableHTTPClientTransport,
  type JSONRPCMessage,
} from '@modelcontextprotocol/client';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { FetchLike } from './auth-fetch.js';
import { boundedAnswers, type RequestId } from './bounded-answers.js';
import type { BodyTooLarge } from '../../http/bounded-fetch.js';
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
  /** Runs `run` after `ms` (setTimeout's); returns what cancels it. A test's clock. */
  schedule?: (run: () => void, ms: number) => () => void;
}

/** In JSON-RPC's "server error" range. */
const PROXY_ERROR = -32000;
const OWN_DISCOVER_ID = 'svcctl-proxy-discover';
/** The SDK's own first delay and longest one (DEFAULT_STREAMABLE_HTTP_RECONNECTION_OPTIONS). */
const RECONNECT_FIRST_MS = 1000;
const RECONNECT_LONGEST_MS = 30_000;

const afterTimeout = (run: () => void, ms: number): (() => void) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

/** Redacted before joining the lines: a secret broken over lines is still whole then. */
function describe(error: unknown, redact: (text: string) => string): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return redact(`${message}${cause}`).replace(/\s+/g, ' ');
}

type Id = RequestId;

/** One client's session: what the client and the server have said so far decides how each message is passed on. */
class EraBridge {
  readonly local: StdioServerTransport;
  readonly remote: StreamableHTTPClientTransport;
  // The body of the last refused HTTP answer: the SDK's error names the status only.
  private refusal = '';
  /** The client's initialize requests the server has not answered yet. */
  private readonly initialize = new Map<Id, InitializeParams>();
  /** The client's own server/discover requests the server has not answered yet. */
  private readonly discoverIds = new Set<Id>();
  private translation: LegacyToModern | undefined;
  private translatedInitId: Id | undefined;
  /** The client's requests the server has not answered yet. */
  private readonly pending = new Set<Id>();
  /** Requests the proxy answered for the server (a cap cut its answer): a late answer from the server is dropped. */
  private readonly answeredHere = new Set<Id>();
  private drained: Promise<void> | undefined;
  /** Event streams opened again since the server last sent a message. */
  private emptyReconnections = 0;

  constructor(private readonly options: BridgeOptions) {
    const fetch = boundedAnswers(options.fetch, {
      room: () => this.room(),
      cut: (ids, error) => this.cut(ids, error),
      refused: (text) => {
        this.refusal = text;
      },
    });
    this.local = new StdioServerTransport(options.stdin, options.stdout);
    this.remote = new StreamableHTTPClientTransport(new URL(options.url), {
      fetch,
      reconnectionScheduler: (reconnect, delay) => this.reconnectLater(reconnect, delay),
    });
    this.remote.onmessage = (message: JSONRPCMessage) => this.fromServer(message);
    this.remote.onerror = (error) => options.log(`remote: ${this.describe(error)}`);
    this.local.onerror = (error) => options.log(`stdin: ${this.describe(error)}`);
    this.local.onmessage = (message: JSONRPCMessage) => this.fromClient(message);
  }

  /** Ends the server's session (bounded: a server that does not answer must not keep the client waiting), then both ends. */
  async close(): Promise<void> {
    if (this.remote.sessionId !== undefined) {
      await Promise.race([
        this.remote.terminateSession().catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, this.options.closeTimeoutMs).unref()),
      ]);
    }
    await this.remote.close();
    await this.local.close();
  }

  private describe(error: unknown): string {
    return describe(error, this.options.redact);
  }

  /** One 'drain' listener however many streams wait: the HTTP streams are read only while stdout takes more, so what
   * waits for a slow client is the server's, in its socket, not the proxy's memory. */
  private room(): Promise<void> {
    const { stdout } = this.options;
    if (!stdout.writableNeedDrain) return Promise.resolve();
    this.drained ??= new Promise<void>((resolve) =>
      stdout.once('drain', () => {
        this.drained = undefined;
        resolve();
      }),
    );
    return this.drained;
  }

  /** The SDK counts its attempts again from the first after each stream that ended without an error, and takes a
   * server's `retry:` as given, 0 included: a server that ends each stream at once (or has it cut at the cap) would be
   * asked again at once, for ever. A second at least, doubled after each stream that brought no message. */
  private reconnectLater(reconnect: () => void, delay: number): () => void {
    const floor = Math.min(RECONNECT_LONGEST_MS, RECONNECT_FIRST_MS * 2 ** this.emptyReconnections);
    this.emptyReconnections += 1;
    return (this.options.schedule ?? afterTimeout)(reconnect, Math.max(delay, floor));
  }

  /** Written here, not by the stdio transport's send, which adds a 'drain' listener for each message while stdout is full. */
  private toClient(message: JSONRPCMessage): void {
    const { stdout } = this.options;
    if (stdout.writableEnded || stdout.destroyed) return;
    stdout.write(serializeMessage(message));
  }

  private cut(ids: Id[], error: BodyTooLarge): void {
    const text = this.describe(error);
    for (const id of ids) {
      const clientId = id === OWN_DISCOVER_ID ? this.translatedInitId : id;
      if (clientId === undefined || !this.pending.has(clientId)) continue;
      this.answeredHere.add(clientId);
      this.replyError(clientId, text);
    }
  }

  private replyError(id: Id, text: string): void {
    this.pending.delete(id);
    this.toClient({
      jsonrpc: '2.0',
      id,
      error: { code: PROXY_ERROR, message: this.options.redact(`svcctl mcp proxy: ${text}`) },
    });
  }

  private cannotPin(id: Id, answer: string): void {
    const text = `${this.options.url} does not speak MCP ${MODERN_REVISION} (${answer}): a client pinned to ${MODERN_REVISION} cannot use it through the proxy; a client that negotiates falls back to 2025-11-25`;
    this.options.log(text);
    this.replyError(id, text);
  }

  /** The server refused the client's 2025 initialize: ask server/discover in the client's name and translate from now on. */
  private bridgeToModern(id: Id): void {
    this.translation = new LegacyToModern(this.initialize.get(id) ?? {});
    this.translatedInitId = id;
    this.initialize.delete(id);
    this.remote
      .send(this.translation.discoverRequest(OWN_DISCOVER_ID))
      .catch((error: unknown) => this.replyError(id, `server/discover failed: ${this.describe(error)}`));
  }

  private fromServer(message: JSONRPCMessage): void {
    this.emptyReconnections = 0;
    const id = (message as { id?: Id }).id;
    const isAnswer = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
    if (id !== undefined && isAnswer) {
      if (this.answeredHere.delete(id)) return;
      this.pending.delete(id);
    }
    if (id === OWN_DISCOVER_ID && this.translation && this.translatedInitId !== undefined)
      return this.answerInitialize(message, this.translation, this.translatedInitId);
    if (id !== undefined && this.initialize.has(id)) {
      if (isJSONRPCErrorResponse(message) && refusesVersion(JSON.stringify(message.error)))
        return this.bridgeToModern(id);
      this.initialize.delete(id);
      this.useNegotiatedVersion(message);
    }
    if (id !== undefined && this.discoverIds.delete(id)) {
      const offered = offeredRevisions(isJSONRPCResultResponse(message) ? message.result : undefined);
      if (!offered.includes(MODERN_REVISION))
        return this.cannotPin(
          id,
          isJSONRPCErrorResponse(message)
            ? `it answered: ${message.error.message}`
            : `it offers ${offered.join(', ') || 'nothing'}`,
        );
      this.options.log(`connected to ${this.options.url} in MCP ${MODERN_REVISION} (no session)`);
    }
    this.toClient(this.translation ? this.translation.toLegacy(message) : message);
  }

  /** The answer to the proxy's own server/discover becomes the answer to the client's 2025 initialize. */
  private answerInitialize(message: JSONRPCMessage, translation: LegacyToModern, initId: Id): void {
    const { url, log, redact } = this.options;
    const result = isJSONRPCResultResponse(message) ? message.result : undefined;
    if (!offeredRevisions(result).includes(MODERN_REVISION))
      return this.replyError(
        initId,
        `${url} refused 2025-11-25 and does not offer ${MODERN_REVISION} either: ${redact(JSON.stringify(isJSONRPCErrorResponse(message) ? message.error : offeredRevisions(result)))}`,
      );
    log(
      `connected to ${url} in MCP ${MODERN_REVISION} (the server refused 2025-11-25: the proxy answered initialize and adds the 2026 envelope to each message)`,
    );
    this.toClient(translation.initializeResult(initId, result as Record<string, unknown>));
  }

  // As the SDK's own client does: the chosen version goes on every later request (Mcp-Protocol-Version).
  private useNegotiatedVersion(message: JSONRPCMessage): void {
    const version = isJSONRPCResultResponse(message)
      ? (message.result as { protocolVersion?: unknown }).protocolVersion
      : undefined;
    if (typeof version !== 'string') return;
    this.remote.setProtocolVersion(version);
    const session = this.remote.sessionId ? ` (session ${this.remote.sessionId})` : '';
    this.options.log(`connected to ${this.options.url} in MCP ${version}${session}`);
  }

  private fromClient(message: JSONRPCMessage): void {
    if (this.translation) {
      if ((message as { method?: string }).method === 'notifications/initialized') return;
      // 2026-07-28 has no ping: the proxy answers it.
      if (isJSONRPCRequest(message) && message.method === 'ping')
        return this.toClient({ jsonrpc: '2.0', id: message.id, result: {} });
      message = this.translation.envelope(message);
    } else if (isJSONRPCRequest(message) && isInitializeRequest(message)) {
      this.initialize.set(message.id, message.params as InitializeParams);
    } else if (isJSONRPCRequest(message) && message.method === 'server/discover') {
      this.discoverIds.add(message.id);
    }
    if (isJSONRPCRequest(message)) this.pending.add(message.id);
    this.remote.send(message).catch((error: unknown) => this.notSent(message, error));
  }

  /** A request the server did not take (an HTTP error): answered, so the client never waits for it. */
  private notSent(message: JSONRPCMessage, error: unknown): void {
    if (!isJSONRPCRequest(message) || !this.pending.has(message.id)) return;
    const text = `${this.describe(error)} ${this.refusal}`;
    if (this.initialize.has(message.id) && refusesVersion(text)) return this.bridgeToModern(message.id);
    this.initialize.delete(message.id);
    if (this.discoverIds.delete(message.id))
      return this.cannotPin(message.id, `it answered: ${this.options.redact(this.describe(error))}`);
    this.replyError(message.id, this.describe(error));
  }
}

export async function runBridge(options: BridgeOptions): Promise<void> {
  const bridge = new EraBridge(options);
  const ended = new Promise<void>((resolve) => {
    options.stdin.once('end', resolve);
    options.stdin.once('close', resolve);
  });
  await bridge.remote.start();
  await bridge.local.start();
  await ended;
  await bridge.close();
}
