// For short exchanges only (`mcp doctor`'s probes): a byte cap would cut a long-lived event stream (the proxy's).
import type { Fetch } from './deadline-fetch.js';

export class BodyTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the answer was larger than ${Math.round(maxBytes / 1024)} KiB; svcctl stopped reading it`);
    this.name = 'BodyTooLarge';
  }
}

function capStream(body: ReadableStream<Uint8Array>, maxBytes: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let seen = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      seen += value.byteLength;
      if (seen > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return controller.error(new BodyTooLarge(maxBytes));
      }
      controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

export function cappedFetch(maxBytes: number, base: Fetch = fetch): Fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.body) return response;
    const { status, statusText, headers } = response;
    return new Response(capStream(response.body, maxBytes), { status, statusText, headers });
  };
}
