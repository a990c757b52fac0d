// Both protocol eras on one URL, as an upgraded deployment serves it (docs/sandbox.md). A refreshed bearer token is
// validated again and keeps the session; a session id works only for its own user. This module loads the MCP SDK,
// so the server imports it only on the first /mcp request.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  NodeStreamableHTTPServerTransport,
  toNodeHandler,
  type NodeMcpRequestHandler,
} from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  isInitializeRequest,
  PROTOCOL_VERSION_META_KEY,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import type { EventStore } from './event-store.js';
import { BodyTooLarge, readBody, sendJson, type LoggedResponse } from './http-io.js';
import type { McpAuthenticator } from './mcp-auth.js';
import { SessionRegistry, type SessionLimits } from './mcp-sessions.js';
import { createToolServer } from './mcp-tools.js';
import { McpUsers, type McpUserActivity } from './mcp-users.js';
import type { McpProtocolChoice } from '../core/constants.js';

const MCP_BODY_LIMIT = 4 * 1024 * 1024;

function rpcError(
  res: LoggedResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res.note ??= message;
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
}

/** The SDK's `isLegacyRequest` test, on the parsed body. */
function hasEnvelope(body: unknown): boolean {
  const meta = (body as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta;
  return typeof meta === 'object' && meta !== null && typeof meta[PROTOCOL_VERSION_META_KEY] === 'string';
}

export class McpEndpoint {
  private readonly sessions: SessionRegistry;
  private readonly users = new McpUsers();
  private readonly modern: McpHttpHandler;
  private readonly modernNode: NodeMcpRequestHandler;

  constructor(
    private readonly auth: McpAuthenticator,
    private readonly store: EventStore,
    limits: SessionLimits,
    private readonly protocol: McpProtocolChoice = 'both',
  ) {
    this.sessions = new SessionRegistry(limits);
    // Strict: 2025-era requests reach this handler only under --protocol 2026-07-28, and are refused there.
    this.modern = createMcpHandler(() => createToolServer(store), { legacy: 'reject' });
    this.modernNode = toNodeHandler(this.modern);
  }

  userActivity(email: string): McpUserActivity | undefined {
    return this.users.get(email);
  }

  sessionCount(email?: string): number {
    return email === undefined ? this.sessions.size : this.sessions.countFor(email);
  }

  async handle(req: IncomingMessage, res: LoggedResponse): Promise<void> {
    const auth = await this.auth.authenticate(req);
    if (!auth.ok) {
      const challenge: Record<string, string> = {};
      if (auth.status === 401)
        challenge['www-authenticate'] =
          `Bearer realm="svcctl dev"${req.headers.authorization ? ', error="invalid_token"' : ''}`;
      return rpcError(res, auth.status, -32001, auth.message, challenge);
    }
    const key = auth.email.toLowerCase();
    let body: unknown;
    if (req.method === 'POST') {
      try {
        body = JSON.parse((await readBody(req, MCP_BODY_LIMIT)).toString('utf8'));
      } catch (error) {
        if (error instanceof BodyTooLarge) return rpcError(res, 413, -32600, error.message, { connection: 'close' });
        return rpcError(res, 400, -32700, 'Parse error: the body is not valid JSON');
      }
    }
    const authed = Object.assign(req, {
      auth: { token: '', clientId: auth.email, scopes: [], extra: { email: auth.email, method: auth.method } },
    });
    // Names and ids only: a token appears as a short hash, so the log shows when a client sends a new one.
    const who = `${auth.email} (${auth.method}${auth.tokenId ? ` token sha256:${auth.tokenId}` : ''})`;
    if (this.protocol === '2026-07-28' || (this.protocol === 'both' && hasEnvelope(body))) {
      this.users.record(key, '2026');
      res.note = `${who} 2026-07-28 ${(body as { method?: unknown } | undefined)?.method ?? req.method}`;
      return this.modernNode(authed, res, body);
    }
    this.users.record(key, '2025');
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      // Another user's session id is answered as unknown, not as forbidden: it reveals nothing.
      const session = this.sessions.use(sessionId, key);
      if (!session) return rpcError(res, 404, -32001, 'Session not found: initialize a new session');
      res.note = `${who} session ${session.id}`;
      return session.transport.handleRequest(authed, res, body);
    }
    if (req.method === 'POST' && isInitializeRequest(body)) {
      res.note = `${who} new session`;
      const transport = this.openSession(
        key,
        (id, closed) =>
          (res.note = `${who} new session ${id}${closed.length > 0 ? ` (closed ${closed.join(', ')})` : ''}`),
      );
      await createToolServer(this.store).connect(transport);
      return transport.handleRequest(authed, res, body);
    }
    return rpcError(res, 400, -32000, 'Bad Request: no Mcp-Session-Id header; send initialize first');
  }

  // The sessions that would break the limits are closed synchronously when it initializes, so the count never
  // exceeds them even with initializes racing.
  private openSession(
    email: string,
    opened: (id: string, closed: string[]) => void,
  ): NodeStreamableHTTPServerTransport {
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        const evicted = this.sessions.evictionsFor(email);
        for (const old of evicted) {
          this.sessions.remove(old.id);
          void old.transport.close().catch(() => undefined);
        }
        this.sessions.add({ id, email, transport, lastUsed: Date.now() });
        opened(
          id,
          evicted.map((old) => old.id),
        );
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.sessions.remove(transport.sessionId);
    };
    return transport;
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions.all().map((session) => session.transport.close()), this.modern.close()]);
  }
}
