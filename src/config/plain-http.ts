// No credential goes over plain http to a non-loopback host without --allow-http, as gh and docker login refuse an
// insecure registry unless told; refused before any connection (exit 2).
import type { Context } from '../core/context.js';
import { usageError } from '../core/errors.js';
import { isLoopbackHost } from './settings.js';

export const ALLOW_HTTP_VARIABLE = 'SVCCTL_ALLOW_HTTP';

export function plainHttpAllowed(ctx: Pick<Context, 'env' | 'globals'>): boolean {
  return ctx.globals.allowHttp === true || /^(1|true|yes)$/i.test(ctx.env[ALLOW_HTTP_VARIABLE]?.trim() ?? '');
}

export function plainRemoteHost(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  return parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname) ? parsed.host : undefined;
}

export function plainHttpRefusal(
  ctx: Pick<Context, 'env' | 'globals'>,
  url: string,
  what: string,
): { message: string; hint: string } | undefined {
  const host = plainRemoteHost(url);
  if (host === undefined || plainHttpAllowed(ctx)) return undefined;
  return {
    message: `refusing to send ${what} to ${host} over plain http (${url}): anyone on the way could read it`,
    hint: `use https://${url.slice('http://'.length)} if the deployment serves it; to send it in clear anyway, pass --allow-http or set ${ALLOW_HTTP_VARIABLE}=1`,
  };
}

export function refusePlainHttp(ctx: Pick<Context, 'env' | 'globals'>, url: string, what: string): void {
  const refusal = plainHttpRefusal(ctx, url, what);
  if (refusal) throw usageError(refusal.message, refusal.hint);
}
