import type { Context } from '../core/context.js';
import { saveToken } from './credentials-store.js';
import { describeExpiry, isExpired, summarizeToken, tryDecodeJwt, type TokenSummary } from './jwt.js';
import { requestAccessToken } from './login-request.js';

export interface LoggedIn {
  summary: TokenSummary;
  savedTo?: string;
}

/** With `save`, the caller has read the credentials file, so one that cannot be saved to fails before a login. */
export async function logIn(
  ctx: Context,
  request: { baseUrl: string; email: string; password: string; timeoutSeconds: number; save: boolean; passwordInKeychain?: boolean },
): Promise<LoggedIn> {
  const token = await requestAccessToken(ctx, request);
  const decoded = tryDecodeJwt(token);
  const summary = summarizeToken(token, decoded);
  const now = ctx.now();
  if (!decoded) ctx.out.warn('the access_token is not a JWT: who it belongs to and when it expires are unknown');
  else if (isExpired(decoded.claims, now)) ctx.out.warn(`the new token ${describeExpiry(decoded.claims, now)}: is this computer's clock right?`);
  const result: LoggedIn = { summary };
  if (request.save) {
    result.savedTo = await saveToken(ctx, request.baseUrl, {
      access_token: token,
      email: summary.email ?? request.email,
      expires_at: summary.expires_at,
      saved_at: now.toISOString(),
      ...(request.passwordInKeychain ? { password_in_keychain: true } : {}),
    });
    // The deployment is remembered too, so that later commands need no SERVICE_BASE_URL.
    const { rememberDeployment } = await import('../config/deployments-file.js');
    const name = await rememberDeployment(ctx, request.baseUrl);
    ctx.out.debug(`deployment '${name}' remembered in the svcctl config (svcctl deployment list)`);
  }
  if (ctx.out.interactiveStderr) {
    const who = summary.email ?? request.email;
    ctx.out.success(`Logged in to ${request.baseUrl} as ${who}`);
    if (decoded) ctx.out.info(`The token ${describeExpiry(decoded.claims, now)}.`);
    if (result.savedTo) ctx.out.info(`Saved to ${result.savedTo} ('svcctl token' prints it, 'svcctl logout' forgets it).`);
  } else if (result.savedTo) {
    ctx.out.debug(`token saved to ${result.savedTo}`);
  }
  return result;
}
