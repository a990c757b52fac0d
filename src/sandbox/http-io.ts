import type { IncomingMessage, ServerResponse } from 'node:http';

export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the body is larger than ${limit} bytes`);
  }
}

/** Why a request was refused, for the request log; never a secret. */
export type LogNote = { note?: string };
export type LoggedResponse = ServerResponse & LogNote;

/** Throws BodyTooLarge as soon as the declared or received length passes the limit, without reading further. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.pause();
        reject(new BodyTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)));
    req.once('error', reject);
  });
}

export function sendJson(
  res: LoggedResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendError(
  res: LoggedResponse,
  status: number,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): void {
  res.note ??= message;
  sendJson(res, status, { error: message, ...extra }, headers);
}

/** Closes the connection: the rest of the body is never read. */
export function sendTooLarge(res: LoggedResponse, limit: number): void {
  sendError(res, 413, `the body is larger than the limit of ${limit} bytes`, { limit }, { connection: 'close' });
}

/** A browser cannot send this content type cross-site without a preflight. */
export function hasJsonContentType(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  return typeof type === 'string' && /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type.trim());
}

export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}
