/** The HMAC-SHA256 test vectors in test/fixtures/vectors (computed with Python's hmac module; see its README). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './cli.js';

export interface HmacVector {
  name: string;
  secret: string;
  body: Buffer;
  signature: string;
}

export function hmacVectors(): HmacVector[] {
  const file = join(ROOT, 'test', 'fixtures', 'vectors', 'hmac-sha256.json');
  const data = JSON.parse(readFileSync(file, 'utf8')) as {
    vectors: Array<{ name: string; secret: string; body_base64: string; signature: string }>;
  };
  return data.vectors.map((v) => ({
    name: v.name,
    secret: v.secret,
    body: Buffer.from(v.body_base64, 'base64'),
    signature: v.signature,
  }));
}
