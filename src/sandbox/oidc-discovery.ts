// Validates a bearer token as the real remote MCP server does: the issuer's discovery document, then its userinfo.
// Only trusted issuers are contacted, so a token cannot make the sandbox call an address of the sender's choosing.
import { tryDecodeJwt } from '../auth/jwt.js';
import { createTransport, type Transport } from '../http/transport.js';
import { DISCOVERY_PATH } from './identity-endpoints.js';

const DISCOVERY_TTL_MS = 10 * 60 * 1000;
const TIMEOUT_MS = 5000;

export type TokenCheck =
  | { ok: true; email: string; issuer: string; expiresAt?: number }
  /** The identity provider could not be asked: not the token's fault. */
  | { ok: false; reason: string; unavailable?: boolean };

interface Discovery {
  userinfoEndpoint: string;
  fetchedAt: number;
}

export class OidcValidator {
  private readonly trusted: Set<string>;
  private readonly discoveries = new Map<string, Promise<Discovery>>();
  private readonly transports = new Map<string, Promise<Transport>>();

  constructor(
    trustedIssuers: string[],
    private readonly now: () => number = Date.now,
  ) {
    this.trusted = new Set(trustedIssuers.map((issuer) => issuer.replace(/\/+$/, '')));
  }

  async validate(token: string): Promise<TokenCheck> {
    const claims = tryDecodeJwt(token)?.claims;
    if (!claims) return { ok: false, reason: 'not a JWT' };
    const issuer = typeof claims.iss === 'string' ? claims.iss.replace(/\/+$/, '') : undefined;
    if (!issuer) return { ok: false, reason: 'the token has no iss claim' };
    if (!this.trusted.has(issuer)) return { ok: false, reason: `issuer ${issuer} is not trusted` };
    let discovery: Discovery;
    try {
      discovery = await this.discover(issuer);
    } catch (error) {
      return {
        ok: false,
        unavailable: true,
        reason: `cannot discover the identity provider of ${issuer}: ${(error as Error).message}`,
      };
    }
    let answer: { status: number; json: unknown };
    try {
      answer = await this.get(discovery.userinfoEndpoint, { authorization: `Bearer ${token}` });
    } catch (error) {
      return { ok: false, unavailable: true, reason: `userinfo unreachable: ${(error as Error).message}` };
    }
    if (answer.status !== 200) return { ok: false, reason: `userinfo answered ${answer.status}` };
    const email = (answer.json as { email?: unknown } | undefined)?.email;
    if (typeof email !== 'string' || email === '') return { ok: false, reason: 'userinfo gave no email' };
    return { ok: true, email, issuer, ...(typeof claims.exp === 'number' ? { expiresAt: claims.exp * 1000 } : {}) };
  }

  private discover(issuer: string): Promise<Discovery> {
    const cached = this.discoveries.get(issuer);
    const fresh = (d: Discovery): boolean => this.now() - d.fetchedAt < DISCOVERY_TTL_MS;
    if (cached) {
      return cached.then(
        (d) => (fresh(d) ? d : this.refresh(issuer)),
        () => this.refresh(issuer),
      );
    }
    return this.refresh(issuer);
  }

  private refresh(issuer: string): Promise<Discovery> {
    const pending = (async (): Promise<Discovery> => {
      const answer = await this.get(`${issuer}${DISCOVERY_PATH}`, {});
      const document = answer.json as { issuer?: unknown; userinfo_endpoint?: unknown } | undefined;
      if (answer.status !== 200 || !document) throw new Error(`discovery answered ${answer.status}`);
      // OpenID Connect Discovery 1.0, section 4.3: the document must name the issuer it was fetched for.
      if (document.issuer !== issuer) throw new Error('the discovery document names another issuer');
      if (typeof document.userinfo_endpoint !== 'string')
        throw new Error('the discovery document has no userinfo_endpoint');
      if (new URL(document.userinfo_endpoint).origin !== new URL(issuer).origin)
        throw new Error('userinfo_endpoint is on another origin');
      return { userinfoEndpoint: document.userinfo_endpoint, fetchedAt: this.now() };
    })();
    this.discoveries.set(issuer, pending);
    pending.catch(() => this.discoveries.delete(issuer));
    return pending;
  }

  private async get(url: string, headers: Record<string, string>): Promise<{ status: number; json: unknown }> {
    const { origin } = new URL(url);
    let transport = this.transports.get(origin);
    if (!transport) {
      // No proxy: trusted issuers are the sandbox itself, on loopback.
      transport = createTransport({ env: {}, origin, timeoutMs: TIMEOUT_MS });
      this.transports.set(origin, transport);
    }
    const response = await (await transport).send({
      url,
      method: 'GET',
      headers: { accept: 'application/json', ...headers },
    });
    let json: unknown;
    try {
      json = JSON.parse(response.body);
    } catch {
      json = undefined;
    }
    return { status: response.status, json };
  }

  async close(): Promise<void> {
    const transports = [...this.transports.values()];
    this.transports.clear();
    await Promise.all(transports.map(async (t) => (await t).close()));
  }
}
