// The signing key is random per process, so a token never outlives the sandbox that issued it.
// Not jose: on Node 20 its verify accepts a signature with `=` or a space after it (jose 6.2.17, tried 2026-11-27), and
// a token here has exactly one spelling that passes (test/dev-identity.test.ts).
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { tryDecodeJwt } from '../auth/jwt.js';

export interface TokenClaims {
  iss: string;
  sub: string;
  email: string;
  iat: number;
  exp: number;
  jti: string;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

/** The same user keeps the same `sub` across tokens. */
export function subjectFor(email: string): string {
  return `user_${createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 20)}`;
}

export type Verification = { ok: true; claims: TokenClaims } | { ok: false; reason: string };

export class JwtIssuer {
  private readonly key = randomBytes(32);

  constructor(
    readonly issuer: string,
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  issue(email: string): { token: string; claims: TokenClaims } {
    const iat = Math.floor(this.now() / 1000);
    // jti makes two logins within one second give two different tokens.
    const claims: TokenClaims = {
      iss: this.issuer,
      sub: subjectFor(email),
      email,
      iat,
      exp: iat + this.ttlSeconds,
      jti: randomUUID(),
    };
    const signingInput = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    return { token: `${signingInput}.${this.sign(signingInput).toString('base64url')}`, claims };
  }

  verify(token: string): Verification {
    const parts = token.split('.');
    if (parts.length !== 3) return { ok: false, reason: 'not a JWT' };
    const [header, payload, signature] = parts as [string, string, string];
    // The signature text itself is compared: decoding it first would accept extra or
    // padding characters that Buffer.from(…, 'base64url') silently skips.
    const expected = Buffer.from(this.sign(`${header}.${payload}`).toString('base64url'));
    const given = Buffer.from(signature);
    if (header !== HEADER || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return { ok: false, reason: 'bad signature (not issued by this sandbox run)' };
    }
    const claims = tryDecodeJwt(token)?.claims as TokenClaims | undefined;
    if (!claims || claims.iss !== this.issuer || typeof claims.email !== 'string')
      return { ok: false, reason: 'unexpected claims' };
    if (typeof claims.exp !== 'number' || claims.exp <= Math.floor(this.now() / 1000))
      return { ok: false, reason: 'expired' };
    return { ok: true, claims };
  }

  private sign(input: string): Buffer {
    return createHmac('sha256', this.key).update(input).digest();
  }
}
