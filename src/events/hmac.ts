/**
 * X-Hub-Signature-256: "sha256=" and the lowercase hex HMAC-SHA256 of the
 * exact body bytes, keyed by the secret's UTF-8 bytes.
 */
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { SIGNATURE_PREFIX } from '../core/constants.js';

const SIGNATURE_PATTERN = /^sha256=[0-9a-fA-F]{64}$/;

// A batch signs every event with one secret: prepare its key once.
let lastSecret: string | undefined;
let lastKey: KeyObject | undefined;

function keyOf(secret: string): KeyObject {
  if (secret !== lastSecret || !lastKey) {
    lastKey = createSecretKey(Buffer.from(secret, 'utf8'));
    lastSecret = secret;
  }
  return lastKey;
}

export function signBody(body: Uint8Array, secret: string): string {
  return SIGNATURE_PREFIX + createHmac('sha256', keyOf(secret)).update(body).digest('hex');
}

export function isWellFormedSignature(value: string): boolean {
  return SIGNATURE_PATTERN.test(value);
}

/** Constant-time check of a well-formed signature against the body. */
export function verifySignature(body: Uint8Array, secret: string, signature: string): boolean {
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(signature.slice(SIGNATURE_PREFIX.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
