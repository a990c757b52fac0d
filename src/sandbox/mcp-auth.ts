// Current header names win over the legacy ones; when both kinds are sent, the bearer token is used. A validated
// token is remembered until it expires, so only a new (refreshed) token is validated again.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HEADER_EMAIL, HEADER_PASSWORD, LEGACY_HEADER_EMAIL, LEGACY_HEADER_PASSWORD } from '../core/constants.js';
import type { Credentials } from './credentials.js';
import { bearerToken } from './http-io.js';
import type { OidcValidator } from './oidc-discovery.js';

export type AuthMethod = 'password' | 'legacy-password' | 'bearer';

export type McpAuth =
  | {
      ok: true;
      email: string;
      method: AuthMethod /** Bearer: the first 12 hex digits of the token's sha256 (for the log; not the token). */;
      tokenId?: string;
    }
  | { ok: false; status: 401 | 503; message: string };

const MAX_REMEMBERED_TOKENS = 1000;

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export class McpAuthenticator {
  private readonly validated = new Map<string, { email: string; expiresAt: number }>();

  constructor(
    private readonly credentials: Credentials,
    private readonly oidc: OidcValidator,
    private readonly now: () => number = Date.now,
  ) {}

  async authenticate(req: IncomingMessage): Promise<McpAuth> {
    const token = bearerToken(req);
    if (token !== undefined) return this.byToken(token);
    if (typeof req.headers.authorization === 'string') {
      return { ok: false, status: 401, message: 'the Authorization header must be "Bearer <access token>"' };
    }
    const current = header(req, HEADER_EMAIL) !== undefined || header(req, HEADER_PASSWORD) !== undefined;
    const [emailName, passwordName] = current
      ? [HEADER_EMAIL, HEADER_PASSWORD]
      : [LEGACY_HEADER_EMAIL, LEGACY_HEADER_PASSWORD];
    const email = header(req, emailName);
    const password = header(req, passwordName);
    if (email === undefined && password === undefined) {
      return {
        ok: false,
        status: 401,
        message: `authentication required: send ${HEADER_EMAIL} and ${HEADER_PASSWORD}, or Authorization: Bearer <access token>`,
      };
    }
    if (email === undefined || password === undefined) {
      return { ok: false, status: 401, message: `${email === undefined ? emailName : passwordName} is missing` };
    }
    const user = this.credentials.checkPassword(email, password);
    if (!user) return { ok: false, status: 401, message: 'invalid email or password' };
    return { ok: true, email: user.email, method: current ? 'password' : 'legacy-password' };
  }

  private async byToken(token: string): Promise<McpAuth> {
    const key = createHash('sha256').update(token).digest('hex');
    const known = this.validated.get(key);
    const tokenId = key.slice(0, 12);
    if (known && known.expiresAt > this.now()) return { ok: true, email: known.email, method: 'bearer', tokenId };
    this.validated.delete(key);
    const check = await this.oidc.validate(token);
    if (!check.ok) {
      return check.unavailable
        ? { ok: false, status: 503, message: `cannot validate the token: ${check.reason}` }
        : { ok: false, status: 401, message: `invalid or expired token: ${check.reason}` };
    }
    if (this.validated.size >= MAX_REMEMBERED_TOKENS)
      this.validated.delete(this.validated.keys().next().value as string);
    // Without an exp claim the answer is trusted for one minute only.
    this.validated.set(key, { email: check.email, expiresAt: check.expiresAt ?? this.now() + 60_000 });
    return { ok: true, email: check.email, method: 'bearer', tokenId };
  }
}
