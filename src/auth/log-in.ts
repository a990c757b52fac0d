import type { Context } from '../core/context.js';
import { readSavedToken, saveToken, type SavedWhere } from './credentials-store.js';
import { describeExpiry, isExpired, summarizeToken, tryDecodeJwt, type TokenSummary } from './jwt.js';
import { checkLoginAnswer } from './login-answer.js';
import { requestAccessToken } from './login-request.js';
import { foreign } from '../core/output.js';
import { isLoopbackHost } from '../config/settings.js';

export interface LoggedIn {
  summary: TokenSummary;
  savedTo?: SavedWhere;
  /** The name of the deployment remembered with it, when one was. */
  deployment?: string;
}

/** With `save`, the caller has read the credentials file, so one that cannot be saved to fails before a login. */
export async function logIn(
  ctx: Context,
  request: {
    baseUrl: string;
    email: string;
    password: string;
    timeoutSeconds: number;
    save: boolean;
    passwordInKeychain?: boolean;
    rememberDeployment?: boolean;
  },
): Promise<LoggedIn> {
  const token = await requestAccessToken(ctx, request);
  const decoded = tryDecodeJwt(token);
  const summary = summarizeToken(token, decoded);
  const now = ctx.now();
  if (!decoded) ctx.out.warn('the access_token is not a JWT: who it belongs to and when it expires are unknown');
  else {
    const saved = request.save
      ? await readSavedToken(ctx, request.baseUrl, { warn: false, keychainGone: 'stale' })
      : undefined;
    // A token Credential Manager lost has no issuer to compare: this login replaces it.
    const previous = saved?.token_lost === undefined ? saved : undefined;
    checkLoginAnswer(ctx, decoded, { baseUrl: request.baseUrl, email: request.email, saving: request.save, previous });
    if (isExpired(decoded.claims, now))
      ctx.out.warn(`the new token ${describeExpiry(decoded.claims, now)}: is this computer's clock right?`);
  }
  const result: LoggedIn = { summary };
  if (request.save) {
    result.savedTo = await saveToken(ctx, request.baseUrl, {
      access_token: token,
      email: summary.email ?? request.email,
      expires_at: summary.expires_at,
      saved_at: now.toISOString(),
      ...(request.passwordInKeychain ? { password_in_keychain: true } : {}),
    });
    // The deployment is remembered too, so that later commands need no SERVICE_BASE_URL; a sandbox on this
    // computer is gone once it stops, so it is remembered only when asked (else it would become a dead default).
    if (request.rememberDeployment || !isLoopbackHost(new URL(request.baseUrl).hostname)) {
      const { rememberDeployment } = await import('../config/deployments-file.js');
      result.deployment = await rememberDeployment(ctx, request.baseUrl);
      ctx.out.debug(`deployment '${result.deployment}' remembered in the svcctl config (svcctl deployment list)`);
    } else {
      ctx.out.debug(
        `${request.baseUrl} is on this computer (a sandbox): not saved as a deployment (--remember-deployment saves it)`,
      );
    }
  }
  if (ctx.out.interactiveStderr) {
    const who = summary.email ?? request.email;
    ctx.out.success(`Logged in to ${request.baseUrl} as ${foreign(who)}`);
    if (decoded) ctx.out.info(`The token ${describeExpiry(decoded.claims, now)}.`);
    if (result.savedTo)
      ctx.out.info(`${savedLine(result.savedTo)} ('svcctl token' prints it, 'svcctl logout' forgets it).`);
    if (result.savedTo && result.deployment === undefined)
      ctx.out.info(
        `${request.baseUrl} is on this computer, so it was not saved as a deployment (--remember-deployment saves it).`,
      );
  } else if (result.savedTo) {
    ctx.out.debug(savedLine(result.savedTo));
  }
  if (result.savedTo?.notInKeychain !== undefined)
    ctx.out.warn(
      `the token is in ${result.savedTo.path}, not in Windows Credential Manager: ${result.savedTo.notInKeychain}`,
    );
  return result;
}

const savedLine = (where: SavedWhere): string =>
  where.keychainTarget === undefined
    ? `Saved to ${where.path}`
    : `Saved to Windows Credential Manager as ${where.keychainTarget}, with whose it is and when it expires in ${where.path}`;
