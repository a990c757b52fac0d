// Claims read without verifying (svcctl holds no key); messages never repeat the token: it may be a pasted password.
// Not jose's decodeJwt: with no key, what is left is base64url and JSON.parse per part, and here `token inspect` names
// the bad part and the JWE case in its own words (jose's decoders: 2.6 KB minified, ~0.7 ms to load: not the reason).
import { invalidData } from '../core/errors.js';

export interface DecodedJwt {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function decodeSegment(segment: string, name: string): Record<string, unknown> {
  if (segment === '' || !BASE64URL.test(segment)) {
    throw invalidData(`not a JWT: its ${name} is not base64url text`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    throw invalidData(`not a JWT: its ${name} is not JSON`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw invalidData(`not a JWT: its ${name} is not a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

export function decodeJwt(token: string): DecodedJwt {
  const parts = token.trim().split('.');
  if (parts.length === 5)
    throw invalidData(
      'not a JWT: this looks like an encrypted token (JWE, five parts), which cannot be read without its key',
    );
  if (parts.length !== 3) {
    throw invalidData(`not a JWT: expected three base64url parts separated by '.', found ${parts.length}`);
  }
  return { header: decodeSegment(parts[0]!, 'header'), claims: decodeSegment(parts[1]!, 'claims part') };
}

export function tryDecodeJwt(token: string): DecodedJwt | undefined {
  try {
    return decodeJwt(token);
  } catch {
    return undefined;
  }
}

function numericDate(value: unknown): Date | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  const date = new Date(value * 1000);
  return Number.isNaN(date.getTime()) ? null : date;
}

// RFC 7519 time claims are numbers; a text exp must not read as "no expiry" and pass `token inspect --check`.
export function timeClaimProblem(claims: Record<string, unknown>): string | undefined {
  for (const name of ['exp', 'nbf', 'iat'] as const) {
    const value = claims[name];
    if (value === undefined) continue;
    if (typeof value !== 'number')
      return `the ${name} claim is not a number (it is ${value === null ? 'null' : `a ${Array.isArray(value) ? 'list' : typeof value}`})`;
    if (numericDate(value) === null) return `the ${name} claim is not a date (out of range)`;
  }
  return undefined;
}

export function expiryOf(claims: Record<string, unknown>): Date | null {
  return numericDate(claims.exp);
}

export function issuedAtOf(claims: Record<string, unknown>): Date | null {
  return numericDate(claims.iat);
}

const EMAIL_LIKE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function emailOf(claims: Record<string, unknown>): string | null {
  if (typeof claims.email === 'string' && claims.email !== '') return claims.email;
  if (typeof claims.sub === 'string' && EMAIL_LIKE.test(claims.sub)) return claims.sub;
  return null;
}

export function issuerOf(claims: Record<string, unknown>): string | null {
  return typeof claims.iss === 'string' && claims.iss !== '' ? claims.iss : null;
}

export function isExpired(claims: Record<string, unknown>, now: Date, marginSeconds = 0): boolean {
  const exp = expiryOf(claims);
  return exp !== null && exp.getTime() <= now.getTime() + marginSeconds * 1000;
}

export interface TokenSummary {
  access_token: string;
  token_type: 'Bearer';
  email: string | null;
  issuer: string | null;
  expires_at: string | null;
}

export function summarizeToken(token: string, decoded = tryDecodeJwt(token)): TokenSummary {
  const claims = decoded?.claims ?? {};
  return {
    access_token: token,
    token_type: 'Bearer',
    email: emailOf(claims),
    issuer: issuerOf(claims),
    expires_at: expiryOf(claims)?.toISOString() ?? null,
  };
}

const plural = (count: number, unit: string): string => `${count} ${unit}${count === 1 ? '' : 's'}`;

export function durationInWords(ms: number): string {
  const seconds = Math.floor(Math.abs(ms) / 1000);
  if (seconds < 60) return plural(seconds, 'second');
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return plural(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24)
    return minutes % 60 === 0 ? plural(hours, 'hour') : `${plural(hours, 'hour')} ${plural(minutes % 60, 'minute')}`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? plural(days, 'day') : `${plural(days, 'day')} ${plural(hours % 24, 'hour')}`;
}

export function relativeTime(when: Date, now: Date): string {
  const ms = when.getTime() - now.getTime();
  return ms >= 0 ? `in ${durationInWords(ms)}` : `${durationInWords(ms)} ago`;
}

export function describeExpiry(claims: Record<string, unknown>, now: Date): string {
  const exp = expiryOf(claims);
  if (!exp) return claims.exp === undefined ? 'has no expiry (no exp claim)' : 'has an exp claim that is not a date';
  const verb = exp.getTime() > now.getTime() ? 'expires' : 'expired';
  return `${verb} ${relativeTime(exp, now)} (${exp.toISOString()})`;
}
