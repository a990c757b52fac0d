/** `svcctl logout`: forget the token saved for the base URL (the service has no logout endpoint). */
import type { Context } from '../context.js';
import { resolveBaseUrl } from '../deployment.js';
import { credentialsPath, forgetToken } from '../auth/credentials-store.js';

export async function runLogout(ctx: Context): Promise<void> {
  const baseUrl = resolveBaseUrl(ctx);
  const removed = await forgetToken(ctx, baseUrl);
  if (ctx.globals.json) ctx.out.jsonResult({ base_url: baseUrl, removed });
  if (removed) {
    ctx.out.success(`Logged out of ${baseUrl}: the saved token was removed from ${credentialsPath(ctx)}`);
    ctx.out.info('The token itself stays valid until it expires: svcctl only forgets it.');
  } else {
    ctx.out.info(`Not logged in to ${baseUrl}: no saved token, nothing to do`);
  }
}
