/**
 * /mcp: Streamable HTTP MCP with one session per user email. Every request is
 * authenticated (a refreshed bearer token is validated again and keeps the
 * session); a session id works only for the user it was created for; a new
 * `initialize` from a user replaces that user's previous session. This module
 * loads the MCP SDK, so the server imports it only on the first /mcp request.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { EventStore } from './event-store.js';
import { BodyTooLarge, readBody, sendJson, type LoggedResponse } from './http-io.js';
import type { McpAuthenticator } from './mcp-auth.js';
import { createToolServer } from './mcp-tools.js';

const MCP_BODY_LIMIT = 4 * 1024 * 1024;

interface Session {
  id: string;
  email: string;
  transport: StreamableHTTPServerTransport;
}

function rpcError(res: LoggedResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  res.note ??= message;
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
}

export class McpEndpoint {
  private readonly sessions = new Map<string, Session>();
  private readonly byEmail = new Map<string, Session>();

  constructor(private readonly auth: McpAuthenticator, private readonly store: EventStore) {}

  async handle(req: IncomingMessage, res: LoggedResponse): Promise<void> {
    const auth = await this.auth.authenticate(req);
    if (!auth.ok) {
      const challenge: Record<string, string> = {};
      if (auth.status === 401) challenge['www-authenticate'] = `Bearer realm="svcctl dev"${req.headers.authorization ? ', error="invalid_token"' : ''}`;
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
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = this.sessions.get(sessionId);
      // Another user's session id is answered as unknown, not as forbidden: it reveals nothing.
      if (!session || session.email !== key) return rpcError(res, 404, -32001, 'Session not found: initialize a new session');
      res.note = `${who} session ${session.id}`;
      return session.transport.handleRequest(authed, res, body);
    }
    if (req.method === 'POST' && isInitializeRequest(body)) {
      await this.byEmail.get(key)?.transport.close();
      res.note = `${who} new session`;
      const transport = this.openSession(key, (id) => (res.note = `${who} new session ${id}`));
      await createToolServer(this.store).connect(transport);
      return transport.handleRequest(authed, res, body);
    }
    return rpcError(res, 400, -32000, 'Bad Request: no Mcp-Session-Id header; send initialize first');
  }

  private openSession(email: string, opened: (id: string) => void): StreamableHTTPServerTransport {
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        opened(id);
        const session = { id, email, transport };
        this.sessions.set(id, session);
        this.byEmail.set(email, session);
      },
    });
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id === undefined) return;
      this.sessions.delete(id);
      if (this.byEmail.get(email)?.id === id) this.byEmail.delete(email);
    };
    return transport;
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((session) => session.transport.close()));
  }
}
