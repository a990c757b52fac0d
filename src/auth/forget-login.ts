/** Forgetting the login saved for a base URL: the token, and the password when it is in the OS keychain. */
import type { Context } from '../core/context.js';
import { forgetToken, readStoredLogin } from './credentials-store.js';
import { foreign } from '../core/output.js';

/**
 * Where the saved token was removed from ("from <file>"), or undefined when none was saved. The token is forgotten even
 * when the keychain cannot be reached.
 */
export async function forgetLogin(ctx: Context, baseUrl: string): Promise<string | undefined> {
  const saved = await readStoredLogin(ctx, baseUrl);
  const removed = await forgetToken(ctx, baseUrl);
  if (saved?.password_in_keychain && saved.email) {
    const { forgetPassword } = await import('./keychain.js');
    await forgetPassword({ baseUrl, email: saved.email, platform: ctx.platform }).then(
      () => ctx.out.info(`The password of ${foreign(saved.email ?? '')} was removed from the OS keychain.`),
      (error: Error) =>
        ctx.out.warn(`the password of ${foreign(saved.email ?? '')} may still be in the OS keychain: ${error.message}`),
    );
  }
  return removed;
}
