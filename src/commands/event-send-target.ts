/** The delivery target of `event send` (one event or a batch): the transport, credentials and retry settings. */
import type { Context } from '../core/context.js';
import type { DeliveryTarget } from '../events/deliver.js';
import { createTransport } from '../http/transport.js';
import type { EventSendOptions } from './event-send-options.js';

export async function deliveryTarget(
  ctx: Context,
  options: EventSendOptions,
  url: string,
  token: string,
  secret: string | undefined,
  connections: number,
): Promise<DeliveryTarget> {
  const transport = await createTransport({
    env: ctx.env,
    origin: new URL(url).origin,
    timeoutMs: options.timeout * 1000,
    connections,
  });
  return {
    url,
    token,
    secret,
    transport,
    retries: options.retries,
    timeoutSeconds: options.timeout,
    redactor: ctx.secrets,
    onRetry: ({ attempt, delayMs, reason }) =>
      ctx.out.info(
        `${reason}; retrying in ${delayMs < 1000 ? `${Math.round(delayMs)} ms` : `${(delayMs / 1000).toFixed(1)}s`} (attempt ${attempt + 1} of ${options.retries + 1})`,
      ),
  };
}
