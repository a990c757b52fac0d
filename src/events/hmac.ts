import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { SIGNATURE_PREFIX } from '../core/constants.js';

const SIGNATURE_PATTERN = /^sha256=[0-9a-fA-F]{64}$/;

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

export function verifySignature(body: Uint8Array, secret: string, signature: string): boolean {
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(signature.slice(SIGNATURE_PREFIX.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
