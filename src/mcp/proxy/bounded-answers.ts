// The proxy's answers last as long as the session, so no deadline and no cap on a whole body (docs/architecture.md):
// what is capped is each message instead, and the HTTP stream is read only while the client's stdout takes more.
// A hostile or broken server then costs the proxy at most one message's worth of memory (docs/security.md).
import { ERROR_BODY_LIMIT } from '../../http/body-limit.js';
import { BodyTooLarge } from '../../http/bounded-fetch.js';
import type { FetchLike } from './auth-fetch.js';

/** One JSON answer or one SSE event: a base64 image of 5 MB fits, 8 of them at once do not stay in memory. */
export const MESSAGE_LIMIT = 8 * 1024 * 1024;

export type RequestId = string | number;

export interface AnswerBounds {
  /** Resolves when the client's stdout can take more. */
  room(): Promise<void>;
  /** An event stream was cut by the cap: the requests of the POST it answered will get no answer from the server. */
  cut(ids: RequestId[], error: BodyTooLarge): void;
  /** The kept start of a refused answer. */
  refused(text: string): void;
}

const isRequestId = (id: unknown): id is RequestId => ['string', 'number'].includes(typeof id);

/** The ids of the requests in a POST body (the SDK sends one message, or a batch, as a JSON string). */
function requestIds(body: unknown): RequestId[] {
  if (typeof body !== 'string') return [];
  try {
    const parsed = JSON.parse(body) as unknown;
    return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((message: { id?: unknown; method?: unknown }) =>
      typeof message?.method === 'string' && isRequestId(message.id) ? [message.id] : [],
    );
  } catch {
    return [];
  }
}

/** Bytes of the SSE event being read: an event ends at an empty line, its lines end at CRLF, LF or CR. */
class EventLength {
  private event = 0;
  private line = 0;
  private afterCr = false;

  /** The longest event (so far) that this chunk is part of. */
  add(chunk: Uint8Array): number {
    let longest = this.event;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte === 0x0a && this.afterCr) {
        this.afterCr = false;
        continue;
      }
      this.afterCr = byte === 0x0d;
      if (byte === 0x0a || byte === 0x0d) {
        if (this.line === 0) this.event = 0;
        this.line = 0;
        continue;
      }
      this.line += 1;
      this.event += 1;
      if (this.event > longest) longest = this.event;
    }
    return longest;
  }
}

/** Read only when the client can take more; cut when `tooLong` says the chunk passed the cap. */
function gatedBody(
  body: ReadableStream<Uint8Array>,
  bounds: AnswerBounds,
  tooLong: (chunk: Uint8Array) => boolean,
  onCut: (error: BodyTooLarge) => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        await bounds.room();
        const chunk = await reader.read();
        if (chunk.done) return controller.close();
        if (tooLong(chunk.value)) {
          const error = new BodyTooLarge(MESSAGE_LIMIT, "one message of the server's answer");
          await reader.cancel(error).catch(() => undefined);
          onCut(error);
          return controller.error(error);
        }
        controller.enqueue(chunk.value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    // Nothing read ahead of what the SDK's parser asks for.
    { highWaterMark: 0 },
  );
}

/** At most ERROR_BODY_LIMIT of a refusal, the rest never read. */
async function refusalText(body: ReadableStream<Uint8Array>): Promise<string> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
    if (chunk.done) break;
    chunks.push(chunk.value);
    size += chunk.value.byteLength;
    if (size > ERROR_BODY_LIMIT) {
      await reader.cancel().catch(() => undefined);
      const kept = Buffer.concat(chunks).subarray(0, ERROR_BODY_LIMIT).toString('utf8');
      return `${kept}… (${new BodyTooLarge(ERROR_BODY_LIMIT, 'the refusal').message})`;
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Whether the SDK parses this body event by event (architecture.md "Event-stream answers"). */
function readEventByEvent(method: string | undefined, status: number, ids: RequestId[], type: string | null): boolean {
  if (method === 'GET') return true;
  if (status === 202 || ids.length === 0 || type === null || type.includes(',')) return false;
  return type.split(';', 1)[0]!.trim().toLowerCase() === 'text/event-stream';
}

export function boundedAnswers(send: FetchLike, bounds: AnswerBounds): FetchLike {
  return async (url, init) => {
    const response = await send(url, init);
    if (!response.body) return response;
    const { status, statusText, headers } = response;
    if (!response.ok) {
      const text = await refusalText(response.body);
      bounds.refused(text);
      return new Response(text, { status, statusText, headers });
    }
    const ids = requestIds(init?.body);
    let tooLong: (chunk: Uint8Array) => boolean;
    if (readEventByEvent(init?.method, status, ids, headers.get('content-type'))) {
      const length = new EventLength();
      tooLong = (chunk) => length.add(chunk) > MESSAGE_LIMIT;
    } else {
      let size = 0;
      tooLong = (chunk) => (size += chunk.byteLength) > MESSAGE_LIMIT;
    }
    const body = gatedBody(response.body, bounds, tooLong, (error) => bounds.cut(ids, error));
    return new Response(body, { status, statusText, headers });
  };
}
