// For code that talks through fetch (`mcp doctor`'s probes with the MCP SDK's client): the same attempt deadline
// (attempt-deadline.ts) and body caps (body-limit.ts) as svcctl's own transports. Short exchanges only: either
// would cut a long-lived event stream (the proxy's, which has neither).
import { type AttemptDeadline, startDeadline } from './attempt-deadline.js';
import { bodyLimit, CappedBody } from './body-limit.js';

export type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** Cut, not truncated like a transport's body: a fetch answer has no place to say it was cut. */
export class BodyTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the answer was larger than ${Math.round(maxBytes / 1024)} KiB; svcctl stopped reading it`);
    this.name = 'BodyTooLarge';
  }
}

function boundedBody(
  body: ReadableStream<Uint8Array>,
  limit: number,
  deadline: AttemptDeadline,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const counted = new CappedBody(limit, false);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        deadline.clear();
        return controller.error(deadline.error ?? error);
      }
      if (chunk.done) {
        deadline.clear();
        return controller.close();
      }
      const { buffer, byteOffset, byteLength } = chunk.value;
      if (!counted.add(Buffer.from(buffer, byteOffset, byteLength))) {
        deadline.clear();
        await reader.cancel().catch(() => undefined);
        return controller.error(new BodyTooLarge(limit));
      }
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      deadline.clear();
      return reader.cancel(reason);
    },
  });
}

/** One deadline from the request to the answer's last byte; the body capped by its status, as the transports do. */
export function boundedFetch(timeoutMs: number, base: Fetch = fetch): Fetch {
  return async (input, init) => {
    const abort = new AbortController();
    // fetch does not say when it connected or sent: the whole wait for the answer counts as waiting for its headers.
    const deadline = startDeadline(timeoutMs, (error) => abort.abort(error), 'headers');
    const outer = init?.signal;
    // The SDK aborts its own signal when the transport closes: the attempt is over, and its timer must not stay.
    outer?.addEventListener('abort', () => deadline.clear(), { once: true });
    let response: Response;
    try {
      response = await base(input, { ...init, signal: outer ? AbortSignal.any([outer, abort.signal]) : abort.signal });
    } catch (error) {
      deadline.clear();
      throw deadline.error ?? error;
    }
    if (!response.body) {
      deadline.clear();
      return response;
    }
    deadline.reached('body');
    const { status, statusText, headers } = response;
    return new Response(boundedBody(response.body, bodyLimit(status), deadline), { status, statusText, headers });
  };
}
