// helper is the default only when svcctl can log in again by itself (a password in the OS keychain).
import type { Context } from '../../core/context.js';
import { optionalBaseUrl } from '../../config/base-url.js';
import { usageError } from '../../core/errors.js';
import type { Target } from '../clients/render-entry.js';
import type { AuthMethod, Mode, Scope, TokenHelper, TokenHow } from '../types.js';

async function canRefresh(ctx: Context, baseUrl: string | undefined): Promise<boolean> {
  if (baseUrl === undefined) return false;
  const { readStoredLogin } = await import('../../auth/credentials-store.js');
  return (await readStoredLogin(ctx, baseUrl, { warn: false }))?.password_in_keychain === true;
}

async function withoutRefresh(ctx: Context, baseUrl: string): Promise<Pick<TokenHelper, 'saved' | 'noKeychain'>> {
  const [{ readStoredLogin }, keychain] = await Promise.all([
    import('../../auth/credentials-store.js'),
    import('../../auth/keychain.js'),
  ]);
  const saved = await readStoredLogin(ctx, baseUrl, { warn: false });
  const noKeychain = await keychain.whyNoKeychain({
    baseUrl,
    email: saved?.email ?? 'svcctl-check',
    platform: ctx.platform,
  });
  return { saved: saved ? { expiresAt: saved.expires_at } : null, ...(noKeychain !== undefined ? { noKeychain } : {}) };
}

/** The keychain and the saved token are looked at once per base URL and run (keyed by the run's environment, the same
 * object for every server of `mcp sync`): a sync of many clients would otherwise ask the keychain per entry. */
const looked = new WeakMap<NodeJS.ProcessEnv, Map<string, Promise<unknown>>>();
function once<T>(ctx: Context, key: string, look: () => Promise<T>): Promise<T> {
  const seen = looked.get(ctx.env) ?? new Map<string, Promise<unknown>>();
  looked.set(ctx.env, seen);
  if (!seen.has(key)) seen.set(key, look());
  return seen.get(key) as Promise<T>;
}

export async function chooseTokenHelper(
  ctx: Context,
  target: Target,
  choice: { mode: Mode; auth: AuthMethod; token?: TokenHow; scope?: Scope },
): Promise<TokenHelper | undefined> {
  const bearer = choice.auth === 'bearer' && choice.mode !== 'local';
  if (!bearer) {
    if (choice.token !== undefined) throw usageError('--token is for --auth bearer (with --mode remote or proxy)');
    return undefined;
  }
  if (choice.token === 'static') return undefined;
  const baseUrl = optionalBaseUrl(ctx);
  const refreshes = await once(ctx, `refresh ${baseUrl}`, () => canRefresh(ctx, baseUrl));
  if (choice.token === undefined && (!refreshes || 'format' in target)) return undefined;
  if ('format' in target)
    throw usageError(
      '--token helper is for --client: a generic --format entry cannot name a client’s headers command',
      'use --token static',
    );
  if (baseUrl === undefined) {
    throw usageError(
      '--token helper needs the base URL (the entry runs svcctl with it): set SERVICE_BASE_URL or pass --base-url',
    );
  }
  const { svcctlCommand } = await import('./svcctl-command.js');
  return {
    svcctl: await svcctlCommand(ctx, choice.scope),
    canRefresh: refreshes,
    ...(refreshes ? {} : await once(ctx, `without ${baseUrl}`, () => withoutRefresh(ctx, baseUrl))),
  };
}
