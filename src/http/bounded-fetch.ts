// For code that talks through fetch (`mcp doctor`'s probes with the MCP SDK's client): the same attempt deadline
// (attempt-deadline.ts) and body caps (body-limit.ts) as svcctl's own transports. Short exchanges only: either
// would cut a long-lived event stream (the proxy's, which has neither).
import { type AttemptDeadline, startDeadline } from './attempt-deadline.js';
import { bodyLimit } from './body-limit.js';

export type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

const MIB = 1024 * 1024;

/** The caps as the docs write them: 64 KiB, 1024 KiB, 8 MiB. */
function sizeText(bytes: number): string {
  return bytes > MIB && bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${Math.round(bytes / 1024)} KiB`;
}

/** Cut, not truncated like a transport's body: a fetch answer has no place to say it was cut. */
export class BodyTooLarge extends Error {
  constructor(
    readonly maxBytes: number,
    what = 'the answer',
  ) {
    super(`${what} was larger than ${sizeText(maxBytes)}; svcctl stopped reading it`);
    this.name = 'BodyTooLarge';
  }
}

function boundedBody(
  body: ReadableStream<Uint8Array>,
  limit: number,
  deadline: AttemptDeadline,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let seen = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = await reader.read().catch((error: unknown) => {
        deadline.clear();
        throw deadline.error ?? error;
      });
      if (chunk.done) {
        deadline.clear();
        return controller.close();
      }
      seen += chunk.value.byteLength;
      if (seen > limit) {
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
    outer?.addEventListener('abort', () => deadline.clear());
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
    // The answer is its own init: the new one takes its status, status text and headers.
    return new Response(boundedBody(response.body, bodyLimit(response.status), deadline), response);
  };
}
