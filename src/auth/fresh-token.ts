// The saved token when fresh (no request; no HTTP code even loaded), else a login with a password that needs no prompt
// or the keychain. Logins take turns on a lock, and whoever waited uses the token the other one saved.
import type { Context } from '../core/context.js';
import { CliError, ExitCode } from '../core/errors.js';
import { credentialsPath, readSavedToken, type SavedToken } from './credentials-store.js';
import { expiryOf, relativeTime, tryDecodeJwt } from './jwt.js';
import { withRefreshLock } from './refresh-lock.js';
import { foreign } from '../core/output.js';

/** A helper's token must outlive the request it is put in: one that dies within this many seconds is renewed. */
export const REFRESH_MARGIN_SECONDS = 60;

export interface RefreshSources {
  baseUrl: string;
  timeoutSeconds: number;
  email?: string;
  hasPassword: boolean;
  password: () => Promise<string | undefined>;
  passwordSources: string;
}

export interface FreshToken {
  token: string;
  loggedIn: boolean;
}

type TokenFacts = Pick<SavedToken, 'access_token' | 'expires_at'>;

export function savedExpiry(saved: TokenFacts): Date | null {
  const decoded = tryDecodeJwt(saved.access_token);
  if (decoded) return expiryOf(decoded.claims);
  return saved.expires_at ? new Date(saved.expires_at) : null;
}

// Half the lifetime when shorter: a token minted for seconds (dev --token-ttl 2) is used, not replaced on each call.
function marginFor(saved: TokenFacts, marginSeconds: number): number {
  const claims = tryDecodeJwt(saved.access_token)?.claims;
  const exp = claims?.exp;
  const iat = claims?.iat;
  if (typeof exp !== 'number' || typeof iat !== 'number' || exp <= iat) return marginSeconds;
  return Math.min(marginSeconds, (exp - iat) / 2);
}

/** A token without an expiry counts as valid. */
export function isUsable<T extends TokenFacts>(
  saved: T | undefined,
  now: Date,
  marginSeconds = REFRESH_MARGIN_SECONDS,
): saved is T {
  if (!saved) return false;
  const expiry = savedExpiry(saved);
  return expiry === null || expiry.getTime() > now.getTime() + marginFor(saved, marginSeconds) * 1000;
}

export function staleReason(saved: SavedToken | undefined, baseUrl: string, now: Date, refused?: string): string {
  if (!saved) return `not logged in to ${baseUrl} (no saved token)`;
  if (saved.token_lost !== undefined) return saved.token_lost;
  if (saved.access_token === refused) return `the service refused the saved token for ${baseUrl}`;
  const expiry = savedExpiry(saved)!;
  return `the saved token for ${baseUrl} ${expiry.getTime() <= now.getTime() ? 'expired' : 'expires'} ${relativeTime(expiry, now)}`;
}

async function usableSaved(
  ctx: Context,
  baseUrl: string,
  refused: string | undefined,
  warn = true,
): Promise<{ saved?: SavedToken; usable: boolean }> {
  const saved = await readSavedToken(ctx, baseUrl, { warn, keychainGone: 'stale' });
  return {
    saved,
    usable: isUsable(saved, ctx.now()) && saved.token_lost === undefined && saved.access_token !== refused,
  };
}

async function passwordFor(
  ctx: Context,
  sources: RefreshSources,
  saved: SavedToken | undefined,
): Promise<string | undefined> {
  if (sources.hasPassword) return sources.password();
  if (!saved?.password_in_keychain || !saved.email) return undefined;
  const { rememberedPassword } = await import('./keychain.js');
  return rememberedPassword({ baseUrl: sources.baseUrl, email: saved.email, platform: ctx.platform }, ctx.secrets);
}

/** `refused`: a token the server just answered 401 to; it is not used again whatever its expiry says. */
export async function freshToken(ctx: Context, sources: RefreshSources, refused?: string): Promise<FreshToken> {
  const first = await usableSaved(ctx, sources.baseUrl, refused);
  if (first.usable) return { token: first.saved!.access_token, loggedIn: false };
  const why = staleReason(first.saved, sources.baseUrl, ctx.now(), refused);

  const email = sources.email ?? first.saved?.email ?? undefined;
  const canLogIn = email !== undefined && (sources.hasPassword || first.saved?.password_in_keychain === true);
  if (!canLogIn) {
    const lacking = email === undefined ? 'email' : 'password';
    const from = email === undefined ? '--email or SERVICE_EMAIL' : sources.passwordSources;
    const { giveOrRelogin } = await import('./keychain.js');
    throw new CliError(
      ExitCode.AuthRejected,
      `${why}, and svcctl has no ${lacking} to log in again (it never prompts here)`,
      { hint: await giveOrRelogin(`give the ${lacking} with ${from}`, ctx.platform) },
    );
  }

  return withRefreshLock(ctx, credentialsPath(ctx), (sources.timeoutSeconds + 5) * 1000, async () => {
    // Another svcctl may have logged in while this one waited for the lock.
    const again = await usableSaved(ctx, sources.baseUrl, refused, false);
    if (again.usable) return { token: again.saved!.access_token, loggedIn: false };
    const password = await passwordFor(ctx, sources, again.saved ?? first.saved);
    if (password === undefined) {
      throw new CliError(
        ExitCode.AuthRejected,
        `${why}, and the OS keychain holds no password for ${foreign(email ?? '')}`,
        {
          hint: `run 'svcctl login --save --remember-password' again, or give the password with ${sources.passwordSources}`,
        },
      );
    }
    ctx.out.info(`${why}; logging in again as ${foreign(email ?? '')}`);
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
