/** `svcctl logout`: forget the token saved for the base URL (the service has no logout endpoint). */
import { canPrompt, type Context } from '../core/context.js';
import { resolveBaseUrl } from '../config/base-url.js';
import { readDeployments } from '../config/deployments-file.js';
import { shownUrl } from '../config/settings.js';
import { forgetLogin } from '../auth/forget-login.js';

export interface LogoutOptions {
  /** --forget-deployment: also remove the saved deployment of this base URL, without asking. */
  forgetDeployment?: boolean;
}

export async function runLogout(ctx: Context, options: LogoutOptions = {}): Promise<void> {
  const baseUrl = resolveBaseUrl(ctx);
  const removedFrom = await forgetLogin(ctx, baseUrl);
  const removed = removedFrom !== undefined;
  const name = (await readDeployments(ctx)).deployments.find((d) => d.baseUrl === baseUrl)?.name ?? null;
  if (removed) {
    ctx.out.success(`Logged out of ${baseUrl}: the saved token was removed ${removedFrom}`);
    ctx.out.info('The token itself stays valid until it expires: svcctl only forgets it.');
  } else {
    ctx.out.info(`Not logged in to ${baseUrl}: no saved token, nothing to do`);
  }
  const forget = name !== null && (await forgetDeployment(ctx, name, baseUrl, options));
  if (forget) {
    const { runDeploymentRemove } = await import('./deployments.js');
    await runDeploymentRemove(ctx, name);
  } else if (name === null && options.forgetDeployment) {
    ctx.out.info(`No saved deployment has the base URL ${shownUrl(baseUrl)}: no deployment to forget`);
  } else if (name !== null) {
    // Logging out of a deployment does not forget it unasked (as with gh auth and kubectl contexts); say how to.
    ctx.out.info(`The deployment '${name}' is still saved: 'svcctl deployment remove ${name}' forgets it too.`);
  }
  if (ctx.globals.json) ctx.out.jsonResult({ base_url: baseUrl, removed, deployment_removed: forget ? name : null });
}

async function forgetDeployment(ctx: Context, name: string, baseUrl: string, options: LogoutOptions): Promise<boolean> {
  if (options.forgetDeployment) return true;
  if (!canPrompt(ctx)) return false;
  const { promptConfirm } = await import('../core/prompts.js');
  return promptConfirm(ctx, `Also forget the deployment '${name}' (${shownUrl(baseUrl)})?`, false);
}
