/**
 * Credentials never cross the network in clear unless the user says so: a
 * password, a bearer token or an ingest token (and its signature) is not sent
 * over plain http to a host other than loopback without --allow-http or
 * SVCCTL_ALLOW_HTTP=1, as `gh` and `docker login` refuse an insecure registry
 * unless told. The refusal comes before any connection (exit 2: a bad base
 * URL); loopback (svcctl dev) is never refused.
 */
import type { Context } from '../core/context.js';
import { usageError } from '../core/errors.js';
import { isLoopbackHost } from './settings.js';

export const ALLOW_HTTP_VARIABLE = 'SVCCTL_ALLOW_HTTP';

/** True when --allow-http was given or SVCCTL_ALLOW_HTTP is 1, true or yes. */
export function plainHttpAllowed(ctx: Pick<Context, 'env' | 'globals'>): boolean {
  return ctx.globals.allowHttp === true || /^(1|true|yes)$/i.test(ctx.env[ALLOW_HTTP_VARIABLE]?.trim() ?? '');
}

/** The host of a plain http URL that is not loopback; undefined for https, loopback or no URL. */
export function plainRemoteHost(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  return parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname) ? parsed.host : undefined;
}

/** Why `what` is not sent to `url`; undefined when it may be. */
export function plainHttpRefusal(ctx: Pick<Context, 'env' | 'globals'>, url: string, what: string): { message: string; hint: string } | undefined {
  const host = plainRemoteHost(url);
  if (host === undefined || plainHttpAllowed(ctx)) return undefined;
  return {
    message: `refusing to send ${what} to ${host} over plain http (${url}): anyone on the way could read it`,
    hint: `use https://${url.slice('http://'.length)} if the deployment serves it; to send it in clear anyway, pass --allow-http or set ${ALLOW_HTTP_VARIABLE}=1`,
  };
}

/** Throws the usage error (exit 2) of plainHttpRefusal. */
export function refusePlainHttp(ctx: Pick<Context, 'env' | 'globals'>, url: string, what: string): void {
  const refusal = plainHttpRefusal(ctx, url, what);
  if (refusal) throw usageError(refusal.message, refusal.hint);
}
