/** `svcctl login`: log in, print the access token (stdout), optionally save it. */
import type { Context } from '../core/context.js';
import { resolveBaseUrl } from '../config/base-url.js';
import { resolveLoginCredentials, type CredentialFlags } from '../auth/credentials-input.js';
import { readSavedToken, saveToken } from '../auth/credentials-store.js';
import { describeExpiry, isExpired, summarizeToken, tryDecodeJwt, type TokenSummary } from '../auth/jwt.js';
import { requestAccessToken } from '../auth/login-request.js';
import { usageError } from '../core/errors.js';

export interface LoginOptions extends CredentialFlags {
  save?: boolean;
  /** --remember-password: keep the password in the OS keychain (with --save). */
  rememberPassword?: boolean;
  /** Seconds. */
  timeout: number;
}

export interface LoggedIn {
  summary: TokenSummary;
  /** Where the token was saved, when it was. */
  savedTo?: string;
}

/**
 * Logs in with credentials already resolved, decodes the token, saves it when
 * asked, and tells a person at a terminal who is logged in and for how long.
 * `svcctl token --refresh` uses this too. With `save`, the caller has already
 * read the credentials file (readSavedToken), so a file that cannot be saved
 * to fails before a token is minted.
 */
export async function logIn(
  ctx: Context,
  request: { baseUrl: string; email: string; password: string; timeoutSeconds: number; save: boolean; passwordInKeychain?: boolean },
): Promise<LoggedIn> {
  const token = await requestAccessToken(ctx, request);
  const decoded = tryDecodeJwt(token);
  const summary = summarizeToken(token, decoded);
  const now = new Date();
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

/** The new token on stdout: printing it is the command's purpose, so it is not redacted. */
export function printToken(ctx: Context, summary: TokenSummary): void {
  if (ctx.globals.json) ctx.out.jsonResult(summary, { secret: true });
  else ctx.out.result(summary.access_token, { secret: true });
}

export async function runLogin(ctx: Context, options: LoginOptions): Promise<void> {
  // Refused before the password is asked for (plain http to another host, src/config/plain-http.ts).
  const baseUrl = resolveBaseUrl(ctx, 'the password');
  if (options.rememberPassword && !options.save) throw usageError('--remember-password needs --save', 'svcctl login --save --remember-password');
  const { email, password } = await resolveLoginCredentials(ctx, options);
  // A credentials file or keychain that cannot be saved to fails before a token is minted.
  if (options.save) await readSavedToken(ctx, baseUrl);
  const keychainKey = { baseUrl, email: email.value, platform: ctx.platform };
  const keychain = options.rememberPassword ? await import('../auth/keychain.js') : undefined;
  await keychain?.checkKeychain(keychainKey);
  const { summary } = await logIn(ctx, {
    baseUrl,
    email: email.value,
    password: password.value,
    timeoutSeconds: options.timeout,
    save: options.save === true,
    passwordInKeychain: keychain !== undefined,
  });
  if (keychain) {
    // Keyed like the saved entry (the token's email), which is what a refresh reads.
    await keychain.rememberPassword({ ...keychainKey, email: summary.email ?? email.value }, password.value);
    ctx.out.info(`The password of ${email.value} is in the OS keychain: 'svcctl token --refresh' and 'svcctl mcp proxy' log in again with it ('svcctl logout' forgets it).`);
  }
  printToken(ctx, summary);
}
