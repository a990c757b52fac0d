/**
 * Where svcctl keeps the events spooled for a base URL: DIR/base-<first 16 hex digits of the SHA-256 of the
 * base URL>, computed here on its own rather than with svcctl's function, so a test checks the layout too.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';

export const spoolFolderFor = (spool: string, baseUrl: string): string =>
  join(spool, `base-${createHash('sha256').update(baseUrl).digest('hex').slice(0, 16)}`);
