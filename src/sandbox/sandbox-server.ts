// What a deployment serves, under the same paths, on 127.0.0.1 (docs/sandbox.md).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EVENT_PATH, LOGIN_PATH } from '../core/constants.js';
import { CliError, ExitCode, usageError } from '../core/errors.js';
import { deriveMcpUrl } from '../config/settings.js';
import { capConnections, type ConnectionSlots } from './connection-slots.js';
import { Credentials } from './credentials.js';
import { handleEvent } from './event-endpoint.js';
import { EventStore } from './event-store.js';
import { sendError, type LoggedResponse } from './http-io.js';
import {
  AUTHORIZE_PATH,
  DISCOVERY_PATH,
  handleLogin,
  handleNoBrowserSignIn,
  handleUserinfo,
  JWKS_DOCUMENT,
  JWKS_PATH,
  openIdConfiguration,
  TOKEN_PATH,
  USERINFO_PATH,
} from './identity-endpoints.js';
import { JwtIssuer } from './jwt-issuer.js';
import { McpAuthenticator } from './mcp-auth.js';
import type { McpEndpoint } from './mcp-endpoint.js';
import type { McpUserActivity } from './mcp-users.js';
import { OidcValidator } from './oidc-discovery.js';
import { logWhenDone } from './request-log.js';
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_TOKEN_TTL_SECONDS,
  withDemoDefaults,
  type SandboxOptions,
  type SandboxUser,
  type SandboxWebhook,
} from './sandbox-options.js';

export const HOST = '127.0.0.1';
const API_PREFIX = '/api';

export interface ReadyWebhook {
  name: string;
  ingest_token: string;
  hmac_secret: string | null;
}

export interface Sandbox {
  origin: string;
  baseUrl: string;
  mcpUrl: string;
  users: SandboxUser[];
  webhooks: ReadyWebhook[];
  store: EventStore;
  readyLine(): Record<string, unknown>;
  mcpSessionCount(email?: string): Promise<number>;
  mcpUserActivity(email: string): Promise<McpUserActivity | undefined>;
  close(): Promise<void>;
}

/** A taken port: `svcctl dev` takes another when the port was its own choice (the one it had last time). */
export class PortTaken extends CliError {}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(
          new PortTaken(ExitCode.Usage, `port ${port} on ${HOST} is already in use`, {
            hint: 'choose another --port, or --port 0 for a free one',
          }),
        );
      } else if (error.code === 'EACCES') {
        reject(
          usageError(
            `not allowed to listen on port ${port}`,
            'ports below 1024 need privileges; choose a higher --port',
          ),
        );
      } else {
        reject(new CliError(ExitCode.Unavailable, `cannot listen on ${HOST}:${port}: ${error.code ?? error.message}`));
      }
    });
    server.listen(port, HOST, () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const { users, webhooks } = withDemoDefaults(options.users ?? [], options.webhooks ?? []);
  // A file named after the port is opened once the port is known; no request is served before (the Host check).
  const fileForPort = typeof options.eventsFile === 'function' ? options.eventsFile : undefined;
  const store =
    typeof options.eventsFile === 'function'
      ? new EventStore()
      : await EventStore.open(options.eventsFile, options.log);
  const routes = new SandboxRoutes(options, new Credentials(users, webhooks), store);
  const { server, slots } = createSandboxServer(options, routes);
  const port = await listen(server, options.port ?? 0).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  if (fileForPort)
    routes.store = await EventStore.open(fileForPort(port), options.log).catch(async (error: unknown) => {
      await new Promise((resolve) => server.close(resolve));
      throw error;
    });
  routes.listening(port);
  return sandboxHandle(routes, { server, slots }, users, webhooks);
}

/** What each path answers; the issuer and the allowed Host values are known once the port is. */
class SandboxRoutes {
  origin = '';
  stopping = false;
  mcp: Promise<McpEndpoint> | undefined;
  oidc: OidcValidator | undefined;
  private allowedHosts = new Set<string>();
  private jwt: JwtIssuer | undefined;
  private readonly clock: () => Date;
  private readonly nowMs = (): number => this.clock().getTime();
  private readonly maxBodyBytes: number;

  constructor(
    private readonly options: SandboxOptions,
    private readonly credentials: Credentials,
    public store: EventStore,
  ) {
    this.clock = options.now ?? (() => new Date());
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  }

  listening(port: number): void {
    const { options } = this;
    this.origin = `http://${HOST}:${port}`;
    this.allowedHosts = new Set([`${HOST}:${port}`, `localhost:${port}`]);
    this.jwt = new JwtIssuer(this.origin, options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS, this.nowMs);
    this.oidc = new OidcValidator(options.trustedIssuers ?? [this.origin], this.nowMs);
  }

  async route(req: IncomingMessage, res: LoggedResponse): Promise<void> {
    // A page in a browser may reach 127.0.0.1 through a DNS name it controls (DNS rebinding): only our Host is served.
    if (this.stopping) return sendError(res, 503, 'the sandbox is stopping', {}, { connection: 'close' });
    if (!this.allowedHosts.has(req.headers.host ?? ''))
      return sendError(res, 421, 'unexpected Host header: use the address printed by svcctl dev');
    const path = (req.url ?? '/').split('?')[0] as string;
    const issuer = this.jwt as JwtIssuer;
    const { credentials } = this;
    const only = (method: string): boolean => {
      if (req.method === method) return true;
      sendError(res, 405, `${path} accepts ${method} only`, {}, { allow: method });
      return false;
    };
    if (path === `${API_PREFIX}${EVENT_PATH}`) {
      const events = { credentials, store: this.store, maxBodyBytes: this.maxBodyBytes, now: this.clock };
      return only('POST') ? handleEvent(req, res, events) : undefined;
    }
    if (path === `${API_PREFIX}${LOGIN_PATH}`)
      return only('POST') ? handleLogin(req, res, credentials, issuer) : undefined;
    if (path === DISCOVERY_PATH)
      return only('GET') ? sendJsonDocument(res, openIdConfiguration(this.origin)) : undefined;
    if (path === USERINFO_PATH) return only('GET') ? handleUserinfo(req, res, issuer) : undefined;
    if (path === JWKS_PATH) return only('GET') ? sendJsonDocument(res, JWKS_DOCUMENT) : undefined;
    if (path === AUTHORIZE_PATH)
      return only('GET') ? handleNoBrowserSignIn(res, 'unsupported_response_type') : undefined;
    if (path === TOKEN_PATH) return only('POST') ? handleNoBrowserSignIn(res, 'unsupported_grant_type') : undefined;
    if (path === '/mcp' || path === '/mcp/') return (await this.mcpEndpoint()).handle(req, res);
    sendError(res, 404, `no such endpoint: ${req.method} ${path}`);
  }

  /** Loaded on the first MCP request: most sandboxes only take events. */
  private mcpEndpoint(): Promise<McpEndpoint> {
    const { options } = this;
    this.mcp ??= Promise.all([import('./mcp-endpoint.js'), import('./mcp-sessions.js')]).then(
      ([{ McpEndpoint }, limits]) =>
        new McpEndpoint(
          new McpAuthenticator(this.credentials, this.oidc as OidcValidator, this.nowMs),
          this.store,
          {
            perUser: options.mcpSessionsPerUser ?? limits.DEFAULT_SESSIONS_PER_USER,
            total: options.mcpSessionsTotal ?? limits.DEFAULT_SESSIONS_TOTAL,
            oneSessionPerUser: options.oneSessionPerUser === true,
          },
          options.protocol,
        ),
    );
    return this.mcp;
  }
}

interface SandboxServer {
  server: Server;
  slots: ConnectionSlots;
}

function createSandboxServer(options: SandboxOptions, routes: SandboxRoutes): SandboxServer {
  // A client that trickles its headers or body is cut off (408) once its time passes; a loopback client sends its
  // headers at once, so their time is short. Node checks the open requests every connectionsCheckingInterval.
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const headersTimeout = Math.min(options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS, requestTimeout);
  const limits = {
    requestTimeout,
    headersTimeout,
    connectionsCheckingInterval: Math.min(1000, headersTimeout / 4),
  };
  const server = createServer(limits, (req, res: LoggedResponse) => {
    logWhenDone(req, res, options.log);
    routes.route(req, res).catch((error: unknown) => {
      res.note = `internal error: ${error instanceof Error ? error.message : String(error)}`;
      if (!res.headersSent) sendError(res, 500, 'internal error of the sandbox');
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 30_000;
  return { server, slots: capConnections(server, options.maxConnections ?? DEFAULT_MAX_CONNECTIONS) };
}

function sandboxHandle(
  routes: SandboxRoutes,
  listening: SandboxServer,
  users: SandboxUser[],
  webhooks: SandboxWebhook[],
): Sandbox {
  const { origin, store } = routes;
  const baseUrl = `${origin}${API_PREFIX}`;
  const readyWebhooks = webhooks.map((w) => ({
    name: w.name,
    ingest_token: w.ingestToken,
    hmac_secret: w.hmacSecret ?? null,
  }));
  let closing: Promise<void> | undefined;
  return {
    origin,
    baseUrl,
    mcpUrl: deriveMcpUrl(baseUrl),
    users,
    webhooks: readyWebhooks,
    store,
    readyLine: () => ({ base_url: baseUrl, mcp_url: deriveMcpUrl(baseUrl), users, webhooks: readyWebhooks }),
    mcpSessionCount: async (email) => (routes.mcp ? (await routes.mcp).sessionCount(email?.toLowerCase()) : 0),
    mcpUserActivity: async (email) => (routes.mcp ? (await routes.mcp).userActivity(email.toLowerCase()) : undefined),
    close: () => (closing ??= closeSandbox(routes, listening)),
  };
}

async function closeSandbox(routes: SandboxRoutes, { server, slots }: SandboxServer): Promise<void> {
  routes.stopping = true;
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  if (routes.mcp) await (await routes.mcp).close();
  // Kept-alive connections (and MCP streams just ended) close now, and so do connections that have not sent a whole
  // header (closeIdleConnections leaves those); requests in flight finish first.
  server.closeIdleConnections();
  slots.closeWaiting();
  // Requests in flight get a moment to finish; then every connection is cut.
  const grace = setTimeout(() => server.closeAllConnections(), 2000);
  await stopped;
  clearTimeout(grace);
  await routes.oidc?.close();
  await routes.store.close();
}

function sendJsonDocument(res: LoggedResponse, document: Record<string, unknown>): void {
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=600' });
  res.end(JSON.stringify(document));
}
