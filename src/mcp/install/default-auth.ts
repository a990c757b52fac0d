// Default login method: the token helper only when svcctl holds a login (architecture.md "Default auth").
import type { Context } from '../../core/context.js';
import { optionalBaseUrl } from '../../config/base-url.js';
import { CliError } from '../../core/errors.js';
import type { Target } from '../clients/render-entry.js';
import { type McpEntryOptions, scopeFor } from './entry-request.js';

export type AuthChoice = 'helper' | 'static' | 'password';

export const AUTH_OF: Record<AuthChoice, Pick<McpEntryOptions, 'auth' | 'token'>> = {
  helper: { auth: 'bearer', token: 'helper' },
  static: { auth: 'bearer', token: 'static' },
  password: { auth: 'password' },
};

export interface AuthDefault {
  choice: AuthChoice;
  /** Why this one, in words that follow "no --auth given": for the line that says which method was written. */
  why: string;
}

/** A saved login that still holds a token, or that svcctl can renew by itself (its password in the OS keychain). */
async function usableLogin(ctx: Context, baseUrl: string): Promise<string | undefined> {
  const { readSavedToken } = await import('../../auth/credentials-store.js');
  const saved = await readSavedToken(ctx, baseUrl, { warn: false, keychainGone: 'stale' });
  if (saved === undefined) return undefined;
  if (saved.password_in_keychain === true) return `svcctl can log in to ${baseUrl} again by itself`;
  if (saved.token_lost !== undefined) return undefined;
  if (saved.expires_at === null) return `a login is saved for ${baseUrl}`;
  const expires = Date.parse(saved.expires_at);
  if (Number.isNaN(expires) || expires <= ctx.now().getTime()) return undefined;
  return `a login is saved for ${baseUrl} (until ${saved.expires_at})`;
}

export async function defaultAuth(ctx: Context, targets: Target[], options: McpEntryOptions): Promise<AuthDefault> {
  // A generic --format file names no client, so it cannot hold a client's headers command or svcctl's proxy.
  if (targets.some((target) => 'format' in target))
    return { choice: 'password', why: 'a --format file cannot run the svcctl token helper' };
  // A project's file is shared (committed): a helper entry would work only for members with svcctl on PATH and a login.
  if (targets.some((target) => scopeFor(target, options) === 'project'))
    return {
      choice: 'password',
      why: "a project's file is shared, and a token-helper entry needs svcctl on every member's PATH and their own login",
    };
  const baseUrl = optionalBaseUrl(ctx);
  if (baseUrl === undefined)
    return { choice: 'password', why: 'no base URL is known, so svcctl holds no login for the entry to use' };
  const login = await usableLogin(ctx, baseUrl).catch((error: unknown) => {
    if (error instanceof CliError) return { unreadable: error.message };
    throw error;
  });
  if (typeof login === 'object')
    return { choice: 'password', why: `the saved logins cannot be read (${login.unreadable})` };
  if (login !== undefined) return { choice: 'helper', why: login };
  return { choice: 'password', why: `svcctl holds no unexpired login for ${baseUrl}` };
}
