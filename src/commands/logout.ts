/** `svcctl logout`: forget the token saved for the base URL (the service has no logout endpoint). */
import type { Context } from '../core/context.js';
import { resolveBaseUrl } from '../config/base-url.js';
import { readDeployments } from '../config/deployments-file.js';
import { credentialsPath } from '../auth/credentials-store.js';
import { forgetLogin } from '../auth/forget-login.js';

export async function runLogout(ctx: Context): Promise<void> {
  const baseUrl = resolveBaseUrl(ctx);
  const removed = await forgetLogin(ctx, baseUrl);
  const name = (await readDeployments(ctx)).deployments.find((d) => d.baseUrl === baseUrl)?.name ?? null;
  if (ctx.globals.json) ctx.out.jsonResult({ base_url: baseUrl, removed });
  if (removed) {
    ctx.out.success(`Logged out of ${baseUrl}: the saved token was removed from ${credentialsPath(ctx)}`);
    ctx.out.info('The token itself stays valid until it expires: svcctl only forgets it.');
  } else {
    ctx.out.info(`Not logged in to ${baseUrl}: no saved token, nothing to do`);
  }
  // Logging out of a deployment does not forget it (as with gh auth and kubectl contexts); say how to.
  if (name !== null)
    ctx.out.info(`The deployment '${name}' is still saved: 'svcctl deployment remove ${name}' forgets it too.`);
}
