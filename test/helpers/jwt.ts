/** Test JWTs: HS256-signed with node:crypto, so tests need no JWT library and check decoding independently. */
import { createHmac } from 'node:crypto';

const segment = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

export function makeJwt(
  claims: Record<string, unknown>,
  key = 'test-signing-key',
  header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' },
): string {
  const signingInput = `${segment(header)}.${segment(claims)}`;
  const signature = createHmac('sha256', key).update(signingInput).digest('base64url');
  return `${signingInput}.${signature}`;
}

/** Seconds since the epoch, `offset` seconds from now. */
export const nowPlus = (offsetSeconds: number): number => Math.floor(Date.now() / 1000) + offsetSeconds;
