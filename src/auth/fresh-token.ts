/**
 * A token valid for at least the next REFRESH_MARGIN_SECONDS (or half its
 * lifetime, when that is shorter), for `svcctl
 * token --refresh` (a credential helper) and `svcctl mcp proxy`:
 *
 * 1. Fast path: the saved token (credentials file) when it is valid long
 *    enough and is not the one the server just refused. No request is made
 *    and no HTTP code is loaded (login-request.ts is imported only below).
 * 2. Otherwise log in again with the email (--email, SERVICE_EMAIL, else the
 *    saved one) and a password that needs no prompt (the caller's sources:
 *    --password-file, SERVICE_PASSWORD…; else the OS keychain when `login
 *    --save --remember-password` put it there), and save the new token.
 *    Logins are serialized by a lock beside the credentials file; whoever
 *    waited reads the file again and uses the token the other one saved.
 */
import type { Context } from '../core/context.js';
import { CliError, ExitCode } from '../core/errors.js';
import { credentialsPath, readSavedToken, type SavedToken } from './credentials-store.js';
import { expiryOf, relativeTime, tryDecodeJwt } from './jwt.js';
import { withRefreshLock } from './refresh-lock.js';

/** A helper's token must outlive the request it is put in: one that dies within this many seconds is renewed. */
export const REFRESH_MARGIN_SECONDS = 60;

export interface RefreshSources {
  baseUrl: string;
  timeoutSeconds: number;
  /** The email from --email or SERVICE_EMAIL, when given. */
  email?: string;
  /** Whether a password source that needs no prompt is given (checked before anything is read). */
  hasPassword: boolean;
  /** Reads that password (once). */
  password: () => Promise<string | undefined>;
  /** The names of those sources, for messages. */
  passwordSources: string;
}

export interface FreshToken {
  token: string;
  /** True when this call logged in. */
  loggedIn: boolean;
}

type TokenFacts = Pick<SavedToken, 'access_token' | 'expires_at'>;

export function savedExpiry(saved: TokenFacts): Date | null {
  const decoded = tryDecodeJwt(saved.access_token);
  if (decoded) return expiryOf(decoded.claims);
  return saved.expires_at ? new Date(saved.expires_at) : null;
}

/**
 * The margin for a token: REFRESH_MARGIN_SECONDS, or half the token's
 * lifetime (exp - iat) when that is shorter, so that a token minted for a
 * few seconds (svcctl dev --token-ttl 2) is still used for half of them
 * rather than replaced by a login on every call.
 */
function marginFor(saved: TokenFacts, marginSeconds: number): number {
  const claims = tryDecodeJwt(saved.access_token)?.claims;
  const exp = claims?.exp;
  const iat = claims?.iat;
  if (typeof exp !== 'number' || typeof iat !== 'number' || exp <= iat) return marginSeconds;
  return Math.min(marginSeconds, (exp - iat) / 2);
}

/** Valid for at least the margin more (a token without an expiry counts as valid). */
export function isUsable<T extends TokenFacts>(saved: T | undefined, now: Date, marginSeconds = REFRESH_MARGIN_SECONDS): saved is T {
  if (!saved) return false;
  const expiry = savedExpiry(saved);
  return expiry === null || expiry.getTime() > now.getTime() + marginFor(saved, marginSeconds) * 1000;
}

/** Why the saved token cannot be used, in words. */
export function staleReason(saved: SavedToken | undefined, baseUrl: string, now: Date, refused?: string): string {
  if (!saved) return `not logged in to ${baseUrl} (no saved token)`;
  if (saved.access_token === refused) return `the service refused the saved token for ${baseUrl}`;
  const expiry = savedExpiry(saved)!;
  return `the saved token for ${baseUrl} ${expiry.getTime() <= now.getTime() ? 'expired' : 'expires'} ${relativeTime(expiry, now)}`;
}

/** The saved token, if it is fresh and is not the refused one. */
async function usableSaved(ctx: Context, baseUrl: string, refused: string | undefined, warn = true): Promise<{ saved?: SavedToken; usable: boolean }> {
  const saved = await readSavedToken(ctx, baseUrl, { warn });
  return { saved, usable: isUsable(saved, ctx.now()) && saved?.access_token !== refused };
}

async function passwordFor(ctx: Context, sources: RefreshSources, saved: SavedToken | undefined): Promise<string | undefined> {
  if (sources.hasPassword) return sources.password();
  if (!saved?.password_in_keychain || !saved.email) return undefined;
  const { rememberedPassword } = await import('./keychain.js');
  return rememberedPassword({ baseUrl: sources.baseUrl, email: saved.email, platform: ctx.platform }, ctx.secrets);
}

/**
 * A fresh token. `refused`: a token the server just answered 401 to; it is
 * not used again even if its expiry says it could be.
 */
export async function freshToken(ctx: Context, sources: RefreshSources, refused?: string): Promise<FreshToken> {
  const first = await usableSaved(ctx, sources.baseUrl, refused);
  if (first.usable) return { token: first.saved!.access_token, loggedIn: false };
  const why = staleReason(first.saved, sources.baseUrl, ctx.now(), refused);

  const email = sources.email ?? first.saved?.email ?? undefined;
  const canLogIn = email !== undefined && (sources.hasPassword || first.saved?.password_in_keychain === true);
  if (!canLogIn) {
    const lacking = email === undefined ? 'email' : 'password';
    const from = email === undefined ? '--email or SERVICE_EMAIL' : sources.passwordSources;
    throw new CliError(ExitCode.AuthRejected, `${why}, and svcctl has no ${lacking} to log in again (it never prompts here)`, {
      hint: `give the ${lacking} with ${from}, or run 'svcctl login --save --remember-password' once`,
    });
  }

  return withRefreshLock(ctx, credentialsPath(ctx), (sources.timeoutSeconds + 5) * 1000, async () => {
    // Another svcctl may have logged in while this one waited for the lock.
    const again = await usableSaved(ctx, sources.baseUrl, refused, false);
    if (again.usable) return { token: again.saved!.access_token, loggedIn: false };
    const password = await passwordFor(ctx, sources, again.saved ?? first.saved);
    if (password === undefined) {
      throw new CliError(ExitCode.AuthRejected, `${why}, and the OS keychain holds no password for ${email}`, {
        hint: `run 'svcctl login --save --remember-password' again, or give the password with ${sources.passwordSources}`,
      });
    }
    ctx.out.info(`${why}; logging in again as ${email}`);
    const { logIn } = await import('./log-in.js');
    const keep = (again.saved ?? first.saved)?.password_in_keychain === true;
    const { summary } = await logIn(ctx, {
      baseUrl: sources.baseUrl,
      email,
      password,
      timeoutSeconds: sources.timeoutSeconds,
      save: true,
      passwordInKeychain: keep,
    });
    return { token: summary.access_token, loggedIn: true };
  });
}
