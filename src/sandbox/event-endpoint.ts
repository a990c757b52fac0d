// Checked in the order a real ingestion endpoint checks: token (401), size (413), signature over the raw bytes
// (401), body (400), then a duplicate id (200, not stored again) or a new event (202).
import type { IncomingMessage } from 'node:http';
import { SIGNATURE_HEADER } from '../core/constants.js';
import { isPlainObject, validateEvent, type JsonObject } from '../events/event-validate.js';
import { isWellFormedSignature, verifySignature } from '../events/hmac.js';
import type { Credentials } from './credentials.js';
import type { EventStore } from './event-store.js';
import {
  BodyTooLarge,
  bearerToken,
  hasJsonContentType,
  readBody,
  sendError,
  sendJson,
  sendTooLarge,
  type LoggedResponse,
} from './http-io.js';

export interface EventEndpoint {
  credentials: Credentials;
  store: EventStore;
  maxBodyBytes: number;
  now?: () => Date;
}

const SIGNATURE = SIGNATURE_HEADER.toLowerCase();

/** Stricter than the CLI's input: nothing is filled in, so id and created_at must be there and payload a string. */
function wireProblems(event: JsonObject): string[] {
  const problems: string[] = [];
  if (!('id' in event)) problems.push('event.id: missing');
  if (!('created_at' in event)) problems.push('event.created_at: missing');
  if (isPlainObject(event.payload))
    problems.push('event.payload: must be a string holding a JSON object (serialized), not an object');
  return [...problems, ...validateEvent(event, false).problems];
}

function badRequest(res: LoggedResponse, problems: string[]): void {
  const first = problems[0] as string;
  const field = first.slice(0, first.indexOf(':'));
  sendError(res, 400, `invalid event: ${problems.join('; ')}`, { field, problems });
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function parseEvent(body: Buffer): { event?: JsonObject & { id: string }; problems: string[] } {
  let text: string;
  try {
    text = strictUtf8.decode(body);
  } catch {
    return { problems: ['body: not valid UTF-8 text'] };
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { problems: [`body: not valid JSON (${(error as Error).message})`] };
  }
  if (!isPlainObject(document)) return { problems: ['body: must be a JSON object {"event": {...}}'] };
  if (!('event' in document)) return { problems: ['event: missing (the body is {"event": {...}})'] };
  if (!isPlainObject(document.event)) return { problems: ['event: must be a JSON object'] };
  const problems = wireProblems(document.event);
  return problems.length > 0 ? { problems } : { event: document.event as JsonObject & { id: string }, problems };
}

export async function handleEvent(req: IncomingMessage, res: LoggedResponse, endpoint: EventEndpoint): Promise<void> {
  const token = bearerToken(req);
  const webhook = token === undefined ? undefined : endpoint.credentials.webhookFor(token);
  if (!webhook) {
    res.note = token === undefined ? 'no ingest token' : 'unknown ingest token';
    return sendError(
      res,
      401,
      token === undefined ? 'missing ingest token (Authorization: Bearer <ingest token>)' : 'invalid ingest token',
      {},
      {
        'www-authenticate': 'Bearer realm="svcctl dev"',
      },
    );
  }
  if (!hasJsonContentType(req)) return sendError(res, 415, 'Content-Type must be application/json');

  let body: Buffer;
  try {
    body = await readBody(req, endpoint.maxBodyBytes);
  } catch (error) {
    if (error instanceof BodyTooLarge) return sendTooLarge(res, error.limit);
    throw error;
  }

  if (webhook.hmacSecret !== undefined) {
    const signature = req.headers[SIGNATURE];
    if (typeof signature !== 'string')
      return sendError(res, 401, `missing ${SIGNATURE_HEADER}: the connection '${webhook.name}' has an HMAC secret`);
    if (!isWellFormedSignature(signature))
      return sendError(res, 401, `malformed ${SIGNATURE_HEADER}: expected sha256=<64 hex digits>`);
    if (!verifySignature(body, webhook.hmacSecret, signature)) {
      return sendError(
        res,
        401,
        `${SIGNATURE_HEADER} does not match the body (it must be the HMAC-SHA256 of the exact bytes sent)`,
      );
    }
  }

  const { event, problems } = parseEvent(body);
  if (!event) return badRequest(res, problems);
  const stored = await endpoint.store.add({
    received_at: (endpoint.now?.() ?? new Date()).toISOString(),
    webhook: webhook.name,
    event,
  });
  res.note = `${stored ? 'accepted' : 'duplicate'} ${event.id} via ${webhook.name}`;
  sendJson(res, stored ? 202 : 200, stored ? { id: event.id } : { id: event.id, duplicate: true });
}
